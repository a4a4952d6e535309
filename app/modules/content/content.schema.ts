import * as z from "zod";

// The frontmatter of content/blog/*.md and content/guides/*.md. Checked when the site is built, so a
// malformed article fails the build instead of rendering a broken page.
const isoDate = z
  .union([z.date(), z.string()])
  .transform((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value))
  .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD"));

/** Only paths the site serves: a content link to anything else would be a dead link. */
const internalPath = z.string().regex(/^\/[a-z0-9\-/?=&]*$/, "an internal path such as /settings?tab=billing");

export const BlogFrontmatter = z.strictObject({
  title: z.string().min(5).max(70),
  description: z.string().min(50).max(160),
  date: isoDate,
  author: z.string().min(2),
});

export const GUIDE_CATEGORIES = [
  { id: "getting-started", label: "Getting Started" },
  { id: "account-management", label: "Account Management" },
] as const;

export const GuideFrontmatter = z.strictObject({
  title: z.string().min(3).max(60),
  description: z.string().min(50).max(160),
  category: z.enum(["getting-started", "account-management"]),
  order: z.number().int().positive(),
  summary: z.string().min(10).max(100),
  actions: z
    .array(z.strictObject({ label: z.string().min(2), to: internalPath }))
    .min(1)
    .max(2),
});

export type BlogMeta = z.output<typeof BlogFrontmatter>;
export type GuideMeta = z.output<typeof GuideFrontmatter>;

/** What a Markdown module exports after the build plugin has rendered it. */
export interface MarkdownModule<Meta> {
  meta: Meta;
  html: string;
  /** Every root-relative link in the body, for the build-time dead-link check. */
  links: string[];
  words: number;
}
