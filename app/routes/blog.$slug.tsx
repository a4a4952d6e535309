import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";
import { formatDate } from "~/lib/format";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { getPost, readingMinutes } from "~/modules/content/content.server";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";

export const handle = STATIC_PAGE;

export function loader({ params }: LoaderFunctionArgs) {
  const post = getPost(params.slug ?? "");
  if (!post) throw new Response("Not Found", { status: 404 });
  return { slug: post.slug, meta: post.meta, html: post.html, minutes: readingMinutes(post.words) };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? seo(matches, {
        title: data.meta.title,
        description: data.meta.description,
        path: `/blog/${data.slug}`,
        type: "article",
        published: data.meta.date,
      })
    : [{ title: "Page not found — Porchlight" }];

export default function BlogPost() {
  const { meta, html, minutes } = useLoaderData<typeof loader>();
  return (
    <MarketingPage
      label={meta.title}
      title={meta.title}
      trail={[{ label: "Blog", to: "/blog" }]}
      back={{ to: "/blog", label: "Back to Blog" }}
      intro={
        <p className="text-base text-stone-600 dark:text-stone-400">
          {meta.author} · <time dateTime={meta.date}>{formatDate(`${meta.date}T12:00:00Z`)}</time> · {minutes} min read
        </p>
      }
    >
      {/* Rendered from content/blog at build time (ADR 0011); the content is ours and raw HTML in it is refused. */}
      <article className="prose-content" dangerouslySetInnerHTML={{ __html: html }} />
      <aside className="mt-12 rounded-2xl border border-stone-200 bg-white p-6 dark:border-stone-800 dark:bg-stone-900">
        <h2 className="text-xl font-semibold">Put it into practice with Porchlight</h2>
        <p className="mt-2 text-stone-700 dark:text-stone-300">Contacts, pipeline, tasks and commissions in one place. Try it free for 14 days.</p>
        <Link to="/trial" className={buttonClass("primary", "mt-4")}>
          Start Free Trial
        </Link>
      </aside>
    </MarketingPage>
  );
}
