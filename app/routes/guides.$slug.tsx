import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { getGuide } from "~/modules/content/content.server";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";

export const handle = STATIC_PAGE;

export function loader({ params }: LoaderFunctionArgs) {
  const guide = getGuide(params.slug ?? "");
  if (!guide) throw new Response("Not Found", { status: 404 });
  return { slug: guide.slug, meta: guide.meta, html: guide.html };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? seo(matches, { title: data.meta.title, description: data.meta.description, path: `/guides/${data.slug}`, type: "article" })
    : [{ title: "Page not found — Porchlight" }];

export default function GuidePage() {
  const { meta, html } = useLoaderData<typeof loader>();
  return (
    <MarketingPage
      label={meta.title}
      title={meta.title}
      trail={[{ label: "Support", to: "/support" }]}
      back={{ to: "/support", label: "Back to Support" }}
    >
      {/* Rendered from content/guides at build time (ADR 0011); the content is ours and raw HTML in it is refused. */}
      <div className="prose-content guide-steps" dangerouslySetInnerHTML={{ __html: html }} />
      <div className="mt-10 flex flex-wrap gap-3">
        {meta.actions.map((action, index) => (
          <Link key={action.to} to={action.to} className={buttonClass(index === 0 ? "primary" : "secondary")}>
            {action.label}
          </Link>
        ))}
      </div>
    </MarketingPage>
  );
}
