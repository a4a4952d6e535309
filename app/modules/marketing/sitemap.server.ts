import { listGuides, listPosts } from "~/modules/content/content.server";
import { LEGAL } from "./legal";

// The public pages search engines may index. The crawl test checks each of them answers 200.
export const PUBLIC_PATHS = [
  "/",
  "/features",
  "/pricing",
  "/about",
  "/trial",
  "/blog",
  "/support",
  "/contact",
  "/terms",
  "/privacy",
  "/status",
] as const;

/** Paths robots.txt asks crawlers to leave alone: the signed-in app and machine endpoints. */
export const PRIVATE_PATHS = [
  "/api/",
  "/app/",
  "/billing/",
  "/trial/start",
  "/dashboard",
  "/contacts",
  "/pipeline",
  "/tasks",
  "/reports",
  "/ai-assistant",
  "/settings",
  "/operations",
  "/admin",
  "/dev/",
] as const;

export function sitemapEntries(): { path: string; lastmod?: string }[] {
  return [
    ...PUBLIC_PATHS.map((path) => ({
      path,
      lastmod: path === "/terms" ? LEGAL.termsRevised : path === "/privacy" ? LEGAL.privacyRevised : undefined,
    })),
    ...listPosts().map((post) => ({ path: `/blog/${post.slug}`, lastmod: post.meta.date })),
    ...listGuides().map((guide) => ({ path: `/guides/${guide.slug}` })),
  ];
}
