import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useMatches, useNavigation, useRevalidator, useRouteError } from "@remix-run/react";
import { LogOut } from "lucide-react";
import { clientErrorMessage, ErrorPage, NotFound } from "~/components/ErrorPages";
import { Logo } from "~/components/Logo";
import { AppNav, PhoneMoreNav } from "~/components/shell/AppNav";
import { adminNavItems, FOLLOW_UP_NAV_ITEMS, NAV_ITEMS, teamNavItems } from "~/components/shell/nav";
import { openAlertCount } from "~/modules/ops/monitoring.server";
import { teamOf } from "~/modules/team/guard.server";
import type { TeamRole } from "~/db/enums";
import { useWebVitals } from "~/modules/ops/use-web-vitals";
import { SignOutForm } from "~/modules/auth/components/SignOutForm";
import { useFieldCopy } from "~/modules/sync/use-field-copy";
import { FieldCopyStatus } from "~/modules/sync/components/FieldCopyStatus";
import { ReachOutPrompt } from "~/modules/sync/components/ReachOutPrompt";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { failedForWantOfConnection, OfflinePage } from "~/modules/sync/components/OfflinePage";
import { Spinner } from "~/components/ui/Spinner";
import { ThemeToggle } from "~/components/ui/ThemeToggle";
import { isAdmin, requireSubscriber } from "~/modules/auth/guards.server";
import { AddContactProvider } from "~/modules/contacts/components/AddContactDialog";
import { TrashUndoProvider } from "~/modules/trash/components/TrashUndo";
import { MoveUndoProvider } from "~/modules/deals/components/MoveUndo";
import { OnboardingTour } from "~/modules/onboarding/components/OnboardingTour";
import { useTourStep } from "~/modules/onboarding/tour-store";
import { CommandPaletteButton } from "~/modules/palette/components/CommandPaletteButton";
import { CommandPaletteProvider } from "~/modules/palette/components/CommandPaletteProvider";

// Layout of every signed-in page: the billing guard runs here and again in each page's own loader
// (loaders run in parallel), memoised per request so it costs one lookup.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const admin = isAdmin(user, context);
  // Admins' navigation shows how many alerts are open (one count on the index of open alerts; nobody else's pays for it).
  // The timezone (memoised: most pages read the preferences anyway) dates the "How did it go?" answers.
  const [team, openAlerts, prefs] = await Promise.all([
    teamOf(context, user).then((t) => t?.role ?? null),
    admin ? openAlertCount(context) : Promise.resolve(0),
    getDisplayPreferences(context, user.id),
  ]);
  return { userId: user.id, email: user.email, admin, team, openAlerts, timezone: prefs.timezone, rumSampleRate: context.config.RUM_SAMPLE_RATE };
}

function Shell({
  children,
  email,
  admin,
  team,
  userId,
  openAlerts = 0,
}: {
  children: React.ReactNode;
  email?: string;
  admin?: boolean;
  team?: TeamRole | null;
  userId?: string;
  openAlerts?: number;
}) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && !navigation.formMethod;
  // A page whose route says `handle = { wide: true }` (the pipeline board) may use the whole width.
  const wide = useMatches().some((match) => (match.handle as { wide?: boolean } | undefined)?.wide);
  // While the onboarding tour's panel sits at the bottom, the page can scroll its end out from under it.
  const touring = useTourStep(email ?? "") !== null;
  return (
    <div className="min-h-dvh md:pl-56">
      <header className="sticky top-0 z-30 flex items-center justify-between gap-2 border-b border-stone-200 bg-white/95 px-4 py-2 backdrop-blur md:fixed md:inset-x-0 md:left-0 md:z-50 dark:border-stone-800 dark:bg-stone-900/95">
        <Link to="/dashboard" className="rounded-md" aria-label="Porchlight dashboard">
          <Logo />
        </Link>
        <div className="flex items-center gap-1">
          {/* Not on the error page: there is no palette (provider) around it. */}
          {email ? <CommandPaletteButton /> : null}
          <PhoneMoreNav items={[...FOLLOW_UP_NAV_ITEMS, ...teamNavItems(team), ...(admin ? adminNavItems(openAlerts) : [])]} />
          {email ? <span className="hidden max-w-56 truncate text-sm text-stone-600 sm:inline dark:text-stone-400">{email}</span> : null}
          <ThemeToggle />
          <SignOutForm>
            <button
              type="submit"
              className="inline-flex h-12 items-center gap-2 rounded-lg px-3 text-sm font-medium text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800"
            >
              <LogOut aria-hidden="true" className="h-5 w-5" />
              <span className="sr-only sm:not-sr-only">Sign out</span>
            </button>
          </SignOutForm>
        </div>
      </header>
      {loading ? (
        <div className="fixed inset-x-0 top-16 z-50 flex justify-center" aria-live="polite">
          <div className="mt-2 rounded-full bg-white px-3 py-2 shadow dark:bg-stone-800">
            <Spinner size="sm" label="Loading page…" />
          </div>
        </div>
      ) : null}
      <AppNav items={NAV_ITEMS} adminItems={[...FOLLOW_UP_NAV_ITEMS, ...teamNavItems(team), ...(admin ? adminNavItems(openAlerts) : [])]} />
      {/* The bottom padding keeps the page's last controls clear of the floating buttons (Add New Contact, and
          the AI page's Commands and Scroll to top), which sit in one row: on phones 6 rem up (above the bottom
          nav) and 3.5 rem tall, from md 2 rem up. tests/e2e/floating.spec.ts checks every page. */}
      <main
        id="main"
        className={`mx-auto w-full ${wide ? "max-w-none" : "max-w-5xl"} px-4 pt-4 md:pt-20 ${touring ? "pb-[22rem] md:pb-72" : "pb-40 md:pb-24"}`}
        aria-busy={loading || undefined}
      >
        {userId ? <FieldCopyStatus userId={userId} /> : null}
        {children}
      </main>
    </div>
  );
}

export default function AppLayout() {
  const { userId, email, admin, team, openAlerts, timezone, rumSampleRate } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  useWebVitals(rumSampleRate);
  useFieldCopy(userId);
  return (
    <AddContactProvider>
      <TrashUndoProvider>
        <MoveUndoProvider>
          <CommandPaletteProvider
            navItems={[...NAV_ITEMS, ...FOLLOW_UP_NAV_ITEMS, ...teamNavItems(team), ...(admin ? adminNavItems(openAlerts) : [])]}
          >
            <Shell email={email} admin={admin} team={team} userId={userId} openAlerts={openAlerts}>
              <Outlet />
            </Shell>
            {/* Here, not in a page: the tour stays on screen while it moves between pages. */}
            <OnboardingTour />
            <ReachOutPrompt userId={userId} timezone={timezone} onLogged={() => revalidator.revalidate()} />
          </CommandPaletteProvider>
        </MoveUndoProvider>
      </TrashUndoProvider>
    </AddContactProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  // A page that could not load for want of a connection: the copy saved on the phone instead.
  if (failedForWantOfConnection(error)) {
    return (
      <Shell>
        <OfflinePage />
      </Shell>
    );
  }
  // On the server, entry.server.tsx handleError has logged it once already.
  if (!isRouteErrorResponse(error) && typeof document !== "undefined") console.error(error);
  return (
    <Shell>
      <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} message={clientErrorMessage(error)} inApp />
    </Shell>
  );
}
