import type { MetaDescriptor } from "@remix-run/cloudflare";

// One place for each public page's title, description, canonical URL and Open Graph tags.
const SITE_NAME = "Porchlight";

interface RootMatch {
  id: string;
  data?: unknown;
}

/** The public origin the root loader resolved (PUBLIC_URL, else the request's origin). */
function siteOrigin(matches: readonly RootMatch[]): string {
  const root = matches.find((match) => match.id === "root")?.data as { origin?: string } | undefined;
  return root?.origin ?? "";
}

export function seo(
  matches: readonly RootMatch[],
  page: { title: string; description: string; path: string; type?: "website" | "article"; published?: string },
): MetaDescriptor[] {
  const url = `${siteOrigin(matches)}${page.path}`;
  const title = page.path === "/" ? page.title : `${page.title} — ${SITE_NAME}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary" },
  ];
  if (page.published) tags.push({ property: "article:published_time", content: page.published });
  return tags;
}

/**
 * Marks a route as a static page: it is served without the React runtime (no hydration), so it ships
 * no JavaScript beyond the small inline theme script. Its links and forms work as plain HTML.
 */
export const STATIC_PAGE = { hydrate: false } as const;

export function isStaticPage(matches: readonly { handle?: unknown }[]): boolean {
  return matches.some((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
}
