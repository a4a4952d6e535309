import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { appOrigin } from "~/lib/context.server";
import { PRIVATE_PATHS } from "~/modules/marketing/sitemap.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  const lines = [
    "User-agent: *",
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    "Allow: /",
    "",
    `Sitemap: ${appOrigin(context, request)}/sitemap.xml`,
    "",
  ];
  return new Response(lines.join("\n"), { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
