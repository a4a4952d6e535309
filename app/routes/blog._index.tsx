import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { formatDate } from "~/lib/format";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { listPosts, readingMinutes } from "~/modules/content/content.server";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) => [
  ...seo(matches, {
    title: "Blog",
    description:
      "Practical articles for real estate agents: follow-up cadence, speed to lead, commission splits, pipeline hygiene, AI drafts and CSV imports.",
    path: "/blog",
  }),
  { tagName: "link", rel: "alternate", type: "application/rss+xml", title: "Porchlight blog", href: "/blog/rss.xml" },
];

export function loader() {
  return {
    posts: listPosts().map((post) => ({
      slug: post.slug,
      title: post.meta.title,
      excerpt: post.meta.description,
      date: post.meta.date,
      minutes: readingMinutes(post.words),
    })),
  };
}

export default function BlogIndex() {
  const { posts } = useLoaderData<typeof loader>();
  return (
    <MarketingPage
      label="Blog"
      title="The Porchlight blog"
      intro={<p>Practical notes on running a real estate business: leads, follow-up, pipeline and money.</p>}
    >
      <ol className="flex flex-col gap-4">
        {posts.map((post) => (
          <li key={post.slug}>
            <article className="rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900">
              <p className="text-sm text-stone-600 dark:text-stone-400">
                <time dateTime={post.date}>{formatDate(`${post.date}T12:00:00Z`)}</time> · {post.minutes} min read
              </p>
              <h2 className="mt-1 text-xl font-semibold">
                <Link to={`/blog/${post.slug}`} className="underline-offset-4 hover:underline">
                  {post.title}
                </Link>
              </h2>
              <p className="mt-2 text-stone-700 dark:text-stone-300">{post.excerpt}</p>
            </article>
          </li>
        ))}
      </ol>
      <p className="mt-8">
        <a href="/blog/rss.xml" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
          Subscribe with RSS
        </a>
      </p>
    </MarketingPage>
  );
}
