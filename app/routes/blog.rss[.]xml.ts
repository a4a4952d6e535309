import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { appOrigin } from "~/lib/context.server";
import { listPosts } from "~/modules/content/content.server";

const xml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** RSS 2.0 feed of the blog, newest first, with each article's full HTML. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const origin = appOrigin(context, request);
  const posts = listPosts();
  const items = posts.map((post) => {
    const url = `${origin}/blog/${post.slug}`;
    return `<item><title>${xml(post.meta.title)}</title><link>${url}</link><guid isPermaLink="true">${url}</guid><pubDate>${new Date(`${post.meta.date}T12:00:00Z`).toUTCString()}</pubDate><description>${xml(post.meta.description)}</description><content:encoded>${xml(post.html)}</content:encoded></item>`;
  });
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Porchlight blog</title><link>${origin}/blog</link><atom:link href="${origin}/blog/rss.xml" rel="self" type="application/rss+xml"/><description>Practical articles for real estate agents.</description><language>en-us</language>${posts[0] ? `<lastBuildDate>${new Date(`${posts[0].meta.date}T12:00:00Z`).toUTCString()}</lastBuildDate>` : ""}${items.join("")}</channel></rss>`;
  return new Response(body, { headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
