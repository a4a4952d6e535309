import matter from "gray-matter";
import { Marked } from "marked";
import path from "node:path";
import type { Plugin } from "vite";
import type { ZodType } from "zod";
import { BlogFrontmatter, GuideFrontmatter } from "./content.schema";

// Renders content/**/*.md at build time (ADR 0011): the Worker ships finished HTML, not a Markdown parser.
// Each file's frontmatter is validated against its folder's schema; an invalid file fails the build.
const SCHEMAS: Record<string, ZodType> = { blog: BlogFrontmatter, guides: GuideFrontmatter };

const marked = new Marked({ gfm: true, async: false });

function renderMarkdown(source: string, file: string) {
  const folder = path.basename(path.dirname(file));
  const schema = SCHEMAS[folder];
  if (!schema) throw new Error(`${file}: Markdown is only rendered from content/blog or content/guides`);
  const { data, content } = matter(source);
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(frontmatter)"}: ${issue.message}`);
    throw new Error(`${file}: invalid frontmatter\n  ${problems.join("\n  ")}`);
  }
  // Content is written in this repository; raw HTML in it is still refused so nothing can slip a script in.
  if (/<[a-z!/]/i.test(content.replace(/`[^`]*`/g, ""))) throw new Error(`${file}: raw HTML is not allowed in content`);
  // Wide tables scroll sideways on a phone; the scrolling region must be reachable from the keyboard.
  const html = (marked.parse(content) as string)
    .replace(/<table>/g, '<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>')
    .replace(/<\/table>/g, "</table></div>");
  const links = [...html.matchAll(/href="(\/[^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, "&"));
  const words = content.split(/\s+/).filter(Boolean).length;
  return { meta: parsed.data, html, links, words };
}

export function markdownContent(): Plugin {
  return {
    name: "porchlight-markdown-content",
    enforce: "pre",
    transform(source, id) {
      if (!id.endsWith(".md")) return null;
      return { code: `export default ${JSON.stringify(renderMarkdown(source, id))};`, map: null };
    },
  };
}
