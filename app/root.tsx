import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useMatches, useRouteError } from "@remix-run/react";
import { clientErrorMessage, ErrorPage, NotFound } from "~/components/ErrorPages";
import { useNonce } from "~/components/ui/nonce";
import { StaticToast, Toaster } from "~/components/ui/Toaster";
import { UpdateBanner } from "~/components/UpdateBanner";
import { isStaticPage } from "~/lib/seo";
import { THEME_INIT_SCRIPT, THEME_TOGGLE_SCRIPT } from "~/lib/theme";
import { appOrigin } from "~/lib/context.server";
import { failedForWantOfConnection, OfflinePage } from "~/modules/sync/components/OfflinePage";
import { readToast } from "~/lib/toast.server";
import stylesheet from "~/styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export const meta: MetaFunction = () => [
  { title: "Porchlight — the AI CRM for real estate agents" },
  { name: "description", content: "Contacts, pipeline, tasks, commissions and AI help for real estate agents, built for your phone." },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { toast, setCookie } = await readToast(context, request);
  return data({ toast, origin: appOrigin(context, request) }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

/**
 * True while the server renders a static page (STATIC_PAGE handle): no React runtime is sent. In the
 * browser the app is hydrated by definition, so a client-side visit to a static route renders normally.
 */
function useStaticDocument() {
  return isStaticPage(useMatches()) && typeof document === "undefined";
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const staticDocument = useStaticDocument();
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        {/* Pinch zoom stays on (WCAG 1.4.4); 16px inputs keep iOS from zooming on focus. */}
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#b45309" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_INIT_SCRIPT }} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[200] focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-stone-900"
        >
          Skip to content
        </a>
        {children}
        {staticDocument ? (
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_TOGGLE_SCRIPT }} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <>
      <Outlet />
      {useStaticDocument() ? <StaticToast toast={toast} /> : <Toaster serverToast={toast} />}
      <UpdateBanner />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  // The app's own navigation with no connection (its data request for every route at once fails, so the error
  // reaches this boundary): the copy saved on the phone, on the same screen, never an error page.
  if (failedForWantOfConnection(error)) {
    return (
      <main id="main" className="mx-auto w-full max-w-5xl px-4">
        <OfflinePage />
      </main>
    );
  }
  // On the server, entry.server.tsx handleError has logged it once already.
  if (!isRouteErrorResponse(error) && typeof document !== "undefined") console.error(error);
  return <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} message={clientErrorMessage(error)} />;
}
