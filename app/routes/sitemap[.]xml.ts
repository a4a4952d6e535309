import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { appOrigin } from "~/lib/context.server";
import { sitemapEntries } from "~/modules/marketing/sitemap.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  const origin = appOrigin(context, request);
  const urls = sitemapEntries().map(
    (entry) => `<url><loc>${origin}${entry.path}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ""}</url>`,
  );
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
