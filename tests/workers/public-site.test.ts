import { describe, expect, it } from "vitest";
import { BlogFrontmatter, GuideFrontmatter } from "~/modules/content/content.schema";
import { getGuide, guideCategories, listGuides, listPosts } from "~/modules/content/content.server";
import { PUBLIC_PATHS } from "~/modules/marketing/sitemap.server";
import { TestBrowser } from "../factories/browser";

const get = (path: string) => new TestBrowser().get(path);
const text = async (path: string) =>
  (await (await get(path)).text())
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");

// Spec section 2: the 18 slugs listed on /support, plus the mobile-app, reports and lead intake guides.
const SUPPORT_SLUGS = [
  "account-setup",
  "importing-contacts",
  "pipeline-setup",
  "ai-features",
  "dashboard-guide",
  "integrations",
  "billing",
  "subscription",
  "permissions",
  "data-backup",
  "security",
  "notifications",
  "team-members",
  "sharing-deals",
  "team-analytics",
  "team-pipeline",
  "brokerage-settings",
  "lead-distribution",
];

const stepsOf = (html: string) => html.slice(html.indexOf("<ol>"), html.indexOf("</ol>")).match(/<li>/g)?.length ?? 0;

describe("content", () => {
  it("has a guide for every slug on /support and for mobile-app, each with numbered steps", () => {
    expect(
      listGuides()
        .map((guide) => guide.slug)
        .sort(),
    ).toEqual([...SUPPORT_SLUGS, "mobile-app", "reports-guide", "lead-intake"].sort());
    for (const guide of listGuides()) expect(stepsOf(guide.html), guide.slug).toBeGreaterThanOrEqual(3);
    expect(stepsOf(getGuide("account-setup")!.html)).toBe(5);
    expect(stepsOf(getGuide("importing-contacts")!.html)).toBe(4);
    expect(getGuide("importing-contacts")!.html).toContain("After the import");
  });

  it("groups the guides in the two categories of /support, in order", () => {
    const categories = guideCategories();
    expect(categories.map((c) => c.label)).toEqual(["Getting Started", "Account Management"]);
    expect(categories.flatMap((c) => c.guides).length).toBe(listGuides().length);
  });

  it("gives the billing, data and dashboard guides the ending buttons of the spec, and their facts", () => {
    const actions = (slug: string) => getGuide(slug)!.meta.actions.map((action) => action.to);
    expect(actions("billing")).toEqual(["/settings?tab=billing", "/contact"]);
    expect(actions("data-backup")).toEqual(["/settings", "/guides/notifications"]);
    expect(actions("dashboard-guide")).toEqual(["/dashboard", "/guides/integrations"]);
    const billing = getGuide("billing")!.html;
    for (const fact of ["Billing", "payment method", "next billing date", "billing address", "tax", "30 days", "refund"])
      expect(billing).toContain(fact);
    expect(getGuide("data-backup")!.html).toMatch(/CSV/);
  });

  it("has at least six dated articles, newest first, each with an excerpt", () => {
    const posts = listPosts();
    expect(posts.length).toBeGreaterThanOrEqual(6);
    const dates = posts.map((post) => post.meta.date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const post of posts) expect(post.words, post.slug).toBeGreaterThan(500);
  });

  it("refuses frontmatter that would render a broken page", () => {
    expect(BlogFrontmatter.safeParse({ title: "Hi", description: "short", date: "22/11/2026", author: "x" }).success).toBe(false);
    expect(
      BlogFrontmatter.safeParse({ title: "A fine title", description: "d".repeat(80), date: "2026-11-02", author: "Team", extra: 1 }).success,
    ).toBe(false);
    const guide = {
      title: "Billing",
      description: "d".repeat(80),
      category: "getting-started",
      order: 1,
      summary: "A summary line",
      actions: [{ label: "Go", to: "https://elsewhere.example" }],
    };
    expect(GuideFrontmatter.safeParse(guide).success).toBe(false);
    expect(GuideFrontmatter.safeParse({ ...guide, actions: [{ label: "Go", to: "/settings?tab=billing" }] }).success).toBe(true);
  });

  it("links only to pages that exist", async () => {
    const targets = new Set<string>();
    for (const entry of [...listGuides(), ...listPosts()]) for (const link of entry.links) targets.add(link.split("#")[0]!);
    for (const guide of listGuides()) for (const action of guide.meta.actions) targets.add(action.to);
    expect(targets.size).toBeGreaterThan(10);
    // A public page answers 200; an app page sends a visitor to sign in and back to it (a path that matches no page
    // answers 404 instead).
    for (const target of targets) {
      const response = await get(target);
      const answer = { status: response.status, location: response.headers.get("Location") };
      if (response.status === 200) expect(answer, target).toEqual({ status: 200, location: null });
      else expect(answer, target).toEqual({ status: 302, location: `/auth?redirectTo=${encodeURIComponent(target)}` });
    }
  });
});

describe("public pages", () => {
  const pages = [...PUBLIC_PATHS, "/guides/billing", `/blog/${listPosts()[0]!.slug}`];

  it("each have their own title, description, canonical URL and Open Graph tags", async () => {
    const seen = { titles: new Set<string>(), descriptions: new Set<string>() };
    for (const path of pages) {
      const html = await text(path);
      const title = html.match(/<title>([^<]+)<\/title>/)?.[1];
      const description = html.match(/<meta name="description" content="([^"]+)"/)?.[1];
      expect(title, path).toBeTruthy();
      expect(description?.length, path).toBeGreaterThan(50);
      expect(html, path).toContain(`<link rel="canonical" href="http://localhost${path}"/>`);
      expect(html, path).toContain(`<meta property="og:url" content="http://localhost${path}"/>`);
      expect(html, path).toMatch(/<meta property="og:title" content="[^"]+"\/>/);
      seen.titles.add(title!);
      seen.descriptions.add(description!);
    }
    expect(seen.titles.size).toBe(pages.length);
    expect(seen.descriptions.size).toBe(pages.length);
  });

  it("ship no React runtime: only the small inline scripts (ADR 0011)", async () => {
    for (const path of pages) {
      const html = await text(path);
      expect(html, path).not.toContain('type="module"');
      expect(html, path).not.toContain("window.__remixContext");
      expect(html, path).toContain("data-theme-toggle");
      const inline = [...html.matchAll(/<script nonce="[^"]+">([\s\S]*?)<\/script>/g)].reduce((sum, m) => sum + m[1]!.length, 0);
      expect(inline, path).toBeLessThan(4_000);
    }
  });

  it("have the landing page's sections, navigation and footer, with every call to action going to /trial", async () => {
    const html = await text("/");
    for (const href of [
      "/features",
      "/pricing",
      "/about",
      "/blog",
      "/support",
      "/contact",
      "/auth",
      "/trial",
      "/privacy",
      "/terms",
      "mailto:hello@porchlight.app",
    ]) {
      expect(html, href).toContain(`href="${href}"`);
    }
    for (const heading of [
      "Sound familiar?",
      "Built for the way agents work",
      "Before and after Porchlight",
      "Made for agents like you",
      "One plan, everything included",
      "Made by agents, for agents",
    ]) {
      expect(html, heading).toContain(heading);
    }
    const trialButtons = [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>Start Free Trial<\/a>/g)].map((m) => m[1]);
    expect(trialButtons.length).toBeGreaterThanOrEqual(4);
    expect(new Set(trialButtons)).toEqual(new Set(["/trial"]));
  });

  it("show the pricing of spec section 9 on the plan card", async () => {
    for (const path of ["/", "/pricing"]) {
      const html = await text(path);
      for (const fact of [
        "Solo Agent",
        "Most Popular",
        "$40",
        "$32",
        "Save $96/year",
        "Save 20%",
        "Contact management",
        "Deal pipeline",
        "Task management",
        "AI assistant",
        "Mobile app access",
      ]) {
        expect(html, `${path}: ${fact}`).toContain(fact);
      }
      expect(html).toMatch(/<input type="radio" name="period"[^>]*checked=""[^>]*value="monthly"/);
    }
  });

  it("/support lists every guide with View Guide, the six questions and Contact Support", async () => {
    const html = await text("/support");
    for (const slug of SUPPORT_SLUGS) expect(html, slug).toContain(`href="/guides/${slug}"`);
    expect(html.match(/>View Guide</g)?.length).toBe(listGuides().length);
    expect(html.match(/<details data-faq/g)?.length).toBe(6);
    expect(html).toMatch(/<a [^>]*href="\/contact"[^>]*>Contact Support<\/a>/);
  });

  it("/trial has its sections and sends every call to action to sign-up", async () => {
    const html = await text("/trial");
    for (const part of [
      "Why agents start here",
      "How It Works",
      "Included in your trial",
      "Encrypted in transit and at rest",
      "$40 a month",
      "Solo Agent",
    ])
      expect(html, part).toContain(part);
    expect(html.match(/<details data-faq/g)?.length).toBe(5);
    const ctas = [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>Create your account<\/a>/g)].map((m) => m[1]);
    expect(ctas.length).toBe(2);
    expect(new Set(ctas)).toEqual(new Set(["/auth?mode=signup"]));
  });

  it("answer an unknown guide, article or path with the not-found page", async () => {
    for (const path of ["/guides/no-such-guide", "/blog/no-such-article", "/no/such/page"]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      const html = (await response.text()).replace(/<!-- -->/g, "");
      expect(html).toContain("Oops! Page not found");
      expect(html).toContain("Return to Home");
    }
  });
});

describe("feeds for machines", () => {
  it("sitemap.xml lists every public page, article and guide, and each of them answers 200", async () => {
    const response = await get("/sitemap.xml");
    expect(response.headers.get("Content-Type")).toContain("application/xml");
    const locs = [...(await response.text()).matchAll(/<loc>http:\/\/localhost([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(locs.length).toBe(PUBLIC_PATHS.length + listPosts().length + listGuides().length);
    for (const path of locs) expect((await get(path)).status, path).toBe(200);
  });

  it("robots.txt points to the sitemap and keeps crawlers out of the app", async () => {
    const body = await (await get("/robots.txt")).text();
    expect(body).toContain("Sitemap: http://localhost/sitemap.xml");
    expect(body).toContain("Disallow: /dashboard");
    expect(body).not.toMatch(/Disallow: \/(blog|guides|pricing|trial)\s/);
  });

  it("the RSS feed carries every article with its link and date", async () => {
    const response = await get("/blog/rss.xml");
    expect(response.headers.get("Content-Type")).toContain("application/rss+xml");
    const body = await response.text();
    expect(body.match(/<item>/g)?.length).toBe(listPosts().length);
    for (const post of listPosts()) expect(body).toContain(`<link>http://localhost/blog/${post.slug}</link>`);
    expect(await text("/blog")).toContain('href="/blog/rss.xml"');
  });
});
