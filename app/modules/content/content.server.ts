import type { BlogMeta, GuideMeta, MarkdownModule } from "./content.schema";
import { GUIDE_CATEGORIES } from "./content.schema";

// Blog articles and help guides: Markdown in content/, rendered to HTML by the build (markdown.vite.ts).
// Server-only, so the articles never reach a client bundle.
type Entry<Meta> = MarkdownModule<Meta> & { slug: string };

function collect<Meta>(modules: Record<string, { default: MarkdownModule<Meta> }>): Entry<Meta>[] {
  return Object.entries(modules).map(([file, module]) => ({ ...module.default, slug: file.split("/").pop()!.replace(/\.md$/, "") }));
}

const posts = collect(import.meta.glob<{ default: MarkdownModule<BlogMeta> }>("/content/blog/*.md", { eager: true })).sort(
  (a, b) => b.meta.date.localeCompare(a.meta.date) || a.slug.localeCompare(b.slug),
);
const guides = collect(import.meta.glob<{ default: MarkdownModule<GuideMeta> }>("/content/guides/*.md", { eager: true })).sort(
  (a, b) => a.meta.order - b.meta.order,
);

export type Post = Entry<BlogMeta>;
export type Guide = Entry<GuideMeta>;

export const listPosts = (): Post[] => posts;
export const getPost = (slug: string): Post | undefined => posts.find((post) => post.slug === slug);
export const listGuides = (): Guide[] => guides;
export const getGuide = (slug: string): Guide | undefined => guides.find((guide) => guide.slug === slug);

/** /support: the two categories with their guides in order. */
export function guideCategories() {
  return GUIDE_CATEGORIES.map((category) => ({
    ...category,
    guides: guides
      .filter((guide) => guide.meta.category === category.id)
      .map((guide) => ({ slug: guide.slug, title: guide.meta.title, summary: guide.meta.summary })),
  }));
}

/** Reading time at 230 words a minute, at least one minute. */
export const readingMinutes = (words: number) => Math.max(1, Math.round(words / 230));
