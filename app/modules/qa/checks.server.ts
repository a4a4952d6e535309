import Stripe from "stripe";
import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, cronRuns, emailOutbox, profiles, stripeEvents, subscribers, userPreferences, users, type SubscriptionStatus } from "~/db/schema";
import type { AppDispatch } from "~/lib/context.server";
import type { Config, Env } from "~/lib/env.server";
import { hashPassword } from "~/modules/auth/password";
import { decideBillingAccess } from "~/modules/billing/guard";
import { purgeAccount } from "~/modules/data/account.server";
import { sitemapEntries } from "~/modules/marketing/sitemap.server";
import { outboxBacklog } from "~/modules/ops/probes.server";
import { accountDatabases } from "~/modules/shards/databases.server";
import { QaBrowser } from "./dispatch.server";

// The QA Dashboard's checks: each one exercises the running system for real — storage round trips,
// the shipped migrations, a throwaway account through sign-up, e-mail verification, sign-in and sign-out, the
// billing guard, a signed Stripe webhook and its replay, security headers, tenant isolation, page budgets, the
// cron and the outbox. A check that cannot run here says "skipped" and why; it never passes instead. Critical
// checks block a release when they fail. Synthetic accounts live under QA_DOMAIN (an undeliverable, reserved
// name: the mailer never hands their e-mails to the provider) and are purged by the runner, pass or fail.

export const QA_DOMAIN = "qa.porchlight.invalid";
export type QaSuite = "Storage" | "Schema" | "Accounts" | "Billing" | "Security" | "Pages" | "Operations";
export type CheckStatus = "passed" | "failed" | "skipped";

interface CheckOutcome {
  status: CheckStatus;
  details: string;
}

export interface QaRunContext {
  env: Env;
  db: Db;
  config: Config;
  runId: string;
  origin: string;
  dispatch: AppDispatch;
  /** Runs after every check, pass or fail: removes what a check made. */
  defer(cleanup: () => Promise<unknown>): void;
}

export interface QaCheck {
  id: string;
  suite: QaSuite;
  name: string;
  critical: boolean;
  run(q: QaRunContext): Promise<CheckOutcome>;
}

const passed = (details: string): CheckOutcome => ({ status: "passed", details });
const failed = (details: string): CheckOutcome => ({ status: "failed", details });
const skipped = (details: string): CheckOutcome => ({ status: "skipped", details });

/** Throws the details of a failure; the runner records the check as failed with them. */
function expect(condition: unknown, details: string): asserts condition {
  if (!condition) throw new Error(details);
}

const browser = (q: QaRunContext) => new QaBrowser(q.origin, q.env, q.dispatch);
const randomPassword = () => `Qa-${crypto.randomUUID()}`;

/** A throwaway agent inserted as sign-up makes one (verified, with the given status), purged after the run. */
async function syntheticAgent(q: QaRunContext, label: string, status: SubscriptionStatus | null = "active") {
  const id = crypto.randomUUID();
  const email = `${label}-${q.runId.slice(0, 8)}-${id.slice(0, 6)}@${QA_DOMAIN}`;
  const password = randomPassword();
  q.defer(() => purgeAccount(q.env, q.db, id));
  await q.db.batch([
    q.db.insert(users).values({ id, email, passwordHash: await hashPassword(password), emailVerifiedAt: new Date() }),
    q.db.insert(profiles).values({ userId: id }),
    q.db.insert(userPreferences).values({ userId: id }),
  ]);
  if (status) await q.db.insert(subscribers).values({ userId: id, email, subscriptionStatus: status });
  return { id, email, password };
}

async function signedIn(q: QaRunContext, agent: { email: string; password: string }) {
  const visitor = browser(q);
  const response = await visitor.post("/auth", { mode: "signin", email: agent.email, password: agent.password, website_url: "" });
  expect(response.status === 302 && visitor.signedIn, `Signing in ${agent.email} answered ${response.status} without a session.`);
  return visitor;
}

const location = (response: Response) => {
  const to = response.headers.get("Location");
  return to ? new URL(to, "http://x").pathname + new URL(to, "http://x").search : null;
};

// Vite lists the migrations shipped with this build (only the names are used).
const SHIPPED_MIGRATIONS = Object.keys(import.meta.glob("/migrations/*.sql", { query: "?raw", import: "default" }))
  .map((path) => path.split("/").pop()!)
  .sort();

/** Public pages and the longest the server may take to start answering one (spec: first byte under 2 s). */
const PAGE_BUDGET_MS = 2_000;

export const QA_CHECKS: QaCheck[] = [
  {
    id: "d1-round-trip",
    suite: "Storage",
    name: "D1: write, read and delete a row",
    critical: true,
    async run(q) {
      const id = `qa-${q.runId}`;
      const value = crypto.randomUUID();
      await q.env.DB.prepare("insert into qa_scratch (id, value, created_at) values (?, ?, ?)").bind(id, value, Date.now()).run();
      q.defer(() => q.env.DB.prepare("delete from qa_scratch where id = ?").bind(id).run());
      const read = await q.env.DB.prepare("select value from qa_scratch where id = ?").bind(id).first<{ value: string }>();
      expect(read?.value === value, `Read back ${JSON.stringify(read?.value ?? null)} instead of the value written.`);
      await q.env.DB.prepare("delete from qa_scratch where id = ?").bind(id).run();
      const gone = await q.env.DB.prepare("select count(*) as n from qa_scratch where id = ?").bind(id).first<{ n: number }>();
      expect(gone?.n === 0, "The row was still there after its delete.");
      return passed("Inserted, read back and deleted a row in qa_scratch.");
    },
  },
  {
    id: "kv-round-trip",
    suite: "Storage",
    name: "KV: write, read and delete a key",
    critical: true,
    async run(q) {
      const key = `qa:${q.runId}`;
      const value = crypto.randomUUID();
      await q.env.KV.put(key, value, { expirationTtl: 120 });
      q.defer(() => q.env.KV.delete(key));
      const read = await q.env.KV.get(key);
      expect(read === value, `Read back ${JSON.stringify(read)} instead of the value written.`);
      await q.env.KV.delete(key);
      expect((await q.env.KV.get(key)) === null, "The key was still there after its delete.");
      return passed("Put, read back and deleted a key with a two-minute expiry.");
    },
  },
  {
    id: "durable-object",
    suite: "Storage",
    name: "Durable Object: the request recorder answers",
    critical: true,
    async run(q) {
      const pending = await q.env.OPS.get(q.env.OPS.idFromName("shard-0")).pendingSamples();
      expect(typeof pending === "number", `It answered ${JSON.stringify(pending)} instead of a count.`);
      return passed(`The OpsRecorder shard answered (${pending} samples waiting to be written).`);
    },
  },
  {
    id: "r2-round-trip",
    suite: "Storage",
    name: "R2: write, read and delete an object",
    critical: true,
    async run(q) {
      const key = `qa/${q.runId}.txt`;
      const value = crypto.randomUUID();
      await q.env.BACKUPS.put(key, value);
      q.defer(() => q.env.BACKUPS.delete(key));
      const read = await (await q.env.BACKUPS.get(key))?.text();
      expect(read === value, `Read back ${JSON.stringify(read ?? null)} instead of the object written.`);
      await q.env.BACKUPS.delete(key);
      expect((await q.env.BACKUPS.head(key)) === null, "The object was still there after its delete.");
      return passed("Put, read back and deleted an object in the backups bucket.");
    },
  },
  {
    id: "migrations",
    suite: "Schema",
    name: "Migrations applied equal the shipped ones",
    critical: true,
    async run(q) {
      const { results } = await q.env.DB.prepare("select name from d1_migrations order by id").all<{ name: string }>();
      const applied = results.map((r) => r.name).sort();
      const missing = SHIPPED_MIGRATIONS.filter((name) => !applied.includes(name));
      const unknown = applied.filter((name) => !SHIPPED_MIGRATIONS.includes(name));
      expect(SHIPPED_MIGRATIONS.length > 0, "The build lists no migrations.");
      expect(missing.length === 0, `Not applied: ${missing.join(", ")}. Run \`wrangler d1 migrations apply\`.`);
      expect(unknown.length === 0, `Applied but not in this build: ${unknown.join(", ")} (an older build is deployed over a newer database).`);
      return passed(`All ${applied.length} migrations applied, the newest ${applied.at(-1)}.`);
    },
  },
  {
    id: "account-journey",
    suite: "Accounts",
    name: "Sign up, verify the e-mail, sign out and sign in",
    critical: true,
    async run(q) {
      const visitor = browser(q);
      const email = `signup-${q.runId.slice(0, 8)}@${QA_DOMAIN}`;
      const password = randomPassword();
      q.defer(async () => {
        const user = await q.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
        if (user) await purgeAccount(q.env, q.db, user.id);
      });
      const signup = await visitor.post("/auth", { mode: "signup", email, password, website_url: "", timezone: "America/New_York" });
      expect(signup.status === 302 && visitor.signedIn, `Sign-up answered ${signup.status}${visitor.signedIn ? "" : " without a session"}.`);
      const mail = await q.db
        .select({ text: emailOutbox.textBody })
        .from(emailOutbox)
        .where(eq(emailOutbox.toAddress, email))
        .orderBy(desc(emailOutbox.createdAt))
        .get();
      const link = mail?.text.match(/https?:\/\/[^\s/]+(\/auth\/verify\?token=[^\s"<>]+)/)?.[1];
      expect(link, "No verification e-mail with a link was written to the outbox.");
      const verify = await visitor.fetch(link);
      expect(verify.status === 302, `The verification link answered ${verify.status}.`);
      const user = await q.db.select({ verified: users.emailVerifiedAt }).from(users).where(eq(users.email, email)).get();
      expect(user?.verified, "The account is still unverified after its link was opened.");
      const signout = await visitor.post("/auth/signout", {});
      expect(!visitor.signedIn, `Sign-out answered ${signout.status} and left the session cookie.`);
      const dashboard = await visitor.fetch("/dashboard");
      expect(
        dashboard.status === 302 && location(dashboard)?.startsWith("/auth"),
        `Signed out, /dashboard answered ${dashboard.status} to ${location(dashboard)}.`,
      );
      const signin = await visitor.post("/auth", { mode: "signin", email, password, website_url: "" });
      expect(signin.status === 302 && visitor.signedIn, `Sign-in answered ${signin.status}${visitor.signedIn ? "" : " without a session"}.`);
      return passed("A throwaway account signed up, verified its e-mail from the outbox's link, signed out and back in.");
    },
  },
  {
    id: "billing-guard",
    suite: "Billing",
    name: "The billing guard on each subscription status",
    critical: true,
    async run(q) {
      const statuses: (SubscriptionStatus | null)[] = ["active", "trialing", "past_due", "canceled", "inactive", null];
      const seen: string[] = [];
      for (const status of statuses) {
        const agent = await syntheticAgent(q, `guard-${status ?? "none"}`, status);
        const visitor = await signedIn(q, agent);
        const response = await visitor.fetch("/dashboard");
        const decision = decideBillingAccess({ known: true, status } as Parameters<typeof decideBillingAccess>[0]);
        if (decision.allow)
          expect(response.status === 200, `${status ?? "no subscription"}: /dashboard answered ${response.status}, expected the page.`);
        else
          expect(
            response.status === 302 && location(response) === decision.redirectTo,
            `${status ?? "no subscription"}: /dashboard answered ${response.status} to ${location(response)}, expected ${decision.redirectTo}.`,
          );
        seen.push(`${status ?? "none"} → ${decision.allow ? "200" : decision.redirectTo}`);
      }
      return passed(seen.join("; "));
    },
  },
  {
    id: "stripe-webhook",
    suite: "Billing",
    name: "A signed Stripe webhook is applied once, and its replay changes nothing",
    critical: true,
    async run(q) {
      if (!q.config.STRIPE_WEBHOOK_SECRET) return skipped("STRIPE_WEBHOOK_SECRET is not set: this deployment takes no Stripe webhooks.");
      const agent = await syntheticAgent(q, "webhook", "inactive");
      const eventId = `evt_qa_${q.runId.replace(/-/g, "")}`;
      q.defer(() => q.db.delete(stripeEvents).where(eq(stripeEvents.id, eventId)));
      const now = Math.floor(Date.now() / 1000);
      const event = {
        id: eventId,
        object: "event",
        type: "customer.subscription.updated",
        created: now,
        data: {
          object: {
            id: `sub_qa_${q.runId.slice(0, 8)}`,
            object: "subscription",
            customer: `cus_qa_${q.runId.slice(0, 8)}`,
            status: "active",
            metadata: { userId: agent.id },
            cancel_at_period_end: false,
            trial_end: null,
            items: {
              object: "list",
              data: [{ id: "si_qa", current_period_end: now + 30 * 86_400, price: { id: "price_qa", recurring: { interval: "month" } } }],
            },
          },
        },
      };
      const payload = JSON.stringify(event);
      const send = async () => {
        const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
          payload,
          secret: q.config.STRIPE_WEBHOOK_SECRET!,
          timestamp: Math.floor(Date.now() / 1000),
          cryptoProvider: Stripe.createSubtleCryptoProvider(),
        });
        const response = await browser(q).fetch("/api/stripe/webhook", {
          method: "POST",
          headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
          body: payload,
        });
        return { status: response.status, body: (await response.json().catch(() => ({}))) as { result?: string } };
      };
      const first = await send();
      expect(
        first.status === 200 && first.body.result === "applied",
        `The event answered ${first.status} (${first.body.result ?? "no result"}), expected applied.`,
      );
      const status = async () =>
        (await q.db.select({ s: subscribers.subscriptionStatus }).from(subscribers).where(eq(subscribers.userId, agent.id)).get())?.s;
      expect((await status()) === "active", `The subscription is ${await status()} after the event, expected active.`);
      const replay = await send();
      expect(
        replay.status === 200 && replay.body.result === "duplicate",
        `The replay answered ${replay.status} (${replay.body.result ?? "no result"}), expected duplicate.`,
      );
      const [recorded] = await q.db.select({ n: count() }).from(stripeEvents).where(eq(stripeEvents.id, eventId));
      expect(recorded?.n === 1, `The event is recorded ${recorded?.n ?? 0} times.`);
      return passed("Signed with the webhook secret: applied (the throwaway subscription became active); the replay was recognised as a duplicate.");
    },
  },
  {
    id: "security-headers",
    suite: "Security",
    name: "Security headers and CSP on a public and a signed-in page",
    critical: true,
    async run(q) {
      const visitor = await signedIn(q, await syntheticAgent(q, "headers"));
      const problems: string[] = [];
      for (const [label, response] of [
        ["/", await browser(q).fetch("/")],
        ["/dashboard", await visitor.fetch("/dashboard")],
      ] as const) {
        const h = response.headers;
        const csp = h.get("Content-Security-Policy") ?? "";
        if (response.status !== 200) problems.push(`${label} answered ${response.status}`);
        if (!/script-src [^;]*'nonce-[\w-]+'/.test(csp)) problems.push(`${label}: no nonce in the CSP's script-src`);
        if (!csp.includes("frame-ancestors 'none'")) problems.push(`${label}: CSP lets other sites frame the page`);
        if (/script-src [^;]*'unsafe-inline'/.test(csp)) problems.push(`${label}: CSP allows inline scripts`);
        if (h.get("X-Content-Type-Options") !== "nosniff") problems.push(`${label}: no X-Content-Type-Options`);
        if (!h.get("Strict-Transport-Security")?.includes("max-age=")) problems.push(`${label}: no Strict-Transport-Security`);
        if (!h.get("Referrer-Policy")) problems.push(`${label}: no Referrer-Policy`);
        if (label === "/dashboard" && !h.get("Cache-Control")?.includes("no-store")) problems.push("/dashboard: a signed-in page may be cached");
      }
      expect(problems.length === 0, problems.join("; "));
      return passed(
        "Both pages: a nonce-based CSP without inline scripts or framing, nosniff, HSTS and a referrer policy; the signed-in page is never cached.",
      );
    },
  },
  {
    id: "tenant-isolation",
    suite: "Security",
    name: "Tenant isolation: an agent cannot reach another agent's contact",
    critical: true,
    async run(q) {
      const owner = await syntheticAgent(q, "owner");
      const other = await syntheticAgent(q, "other");
      const name = `Qa Isolation ${q.runId.slice(0, 8)}`;
      const ownerVisitor = await signedIn(q, owner);
      const created = await ownerVisitor.post("/contacts?index", {
        intent: "create",
        name,
        email: `contact-${q.runId.slice(0, 8)}@${QA_DOMAIN}`,
        status: "hot",
      });
      const contact = await q.db
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.userId, owner.id), eq(contacts.name, name)))
        .get();
      expect(contact, `The owner's contact was not created through the contacts page (it answered ${created.status}).`);
      const intruder = await signedIn(q, other);
      const profile = await intruder.fetch(`/contacts/${contact.id}`);
      expect(profile.status === 404, `Another agent opened the contact's page: ${profile.status}.`);
      const search = await intruder.fetch(`/api/search?q=${encodeURIComponent("Isolation")}`);
      const found = await search.text();
      expect(
        search.status === 200 && !found.includes(contact.id),
        `The other agent's search answered ${search.status}${found.includes(contact.id) ? " and listed the contact" : ""}.`,
      );
      await intruder.post("/contacts?index", { intent: "delete", id: contact.id });
      const still = await q.db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, contact.id)).get();
      expect(still, "Another agent's delete removed the contact.");
      return passed("A second throwaway agent got 404 for the contact's page, did not find it in search, and could not delete it.");
    },
  },
  {
    id: "public-pages",
    suite: "Pages",
    name: `Public pages answer 200 within ${PAGE_BUDGET_MS / 1000} s`,
    critical: false,
    async run(q) {
      const slow: string[] = [];
      const broken: string[] = [];
      let slowest = 0;
      const paths = sitemapEntries().map((entry) => entry.path);
      for (const path of paths) {
        const started = Date.now();
        const response = await browser(q).fetch(path);
        await response.arrayBuffer();
        const ms = Date.now() - started;
        slowest = Math.max(slowest, ms);
        if (response.status !== 200) broken.push(`${path} ${response.status}`);
        else if (ms > PAGE_BUDGET_MS) slow.push(`${path} ${ms} ms`);
      }
      expect(broken.length === 0 && slow.length === 0, [...broken, ...slow].join("; "));
      return passed(`${paths.length} pages of the sitemap, the slowest in ${slowest} ms.`);
    },
  },
  {
    id: "cron",
    suite: "Operations",
    name: "The cron ran in the last 10 minutes",
    critical: false,
    async run(q) {
      const last = await q.db
        .select({ at: cronRuns.startedAt })
        .from(cronRuns)
        .where(eq(cronRuns.job, "heartbeat"))
        .orderBy(desc(cronRuns.startedAt))
        .get();
      if (!last) return failed('The cron has never run here. (Locally: curl "http://localhost:8787/__scheduled?cron=*/5+*+*+*+*".)');
      const minutes = (Date.now() - last.at.getTime()) / 60_000;
      expect(minutes <= 10, `The last run started ${Math.round(minutes)} minutes ago; it runs every 5 minutes.`);
      return passed(`The last run started ${minutes < 1 ? "under a minute" : `${Math.round(minutes)} minutes`} ago.`);
    },
  },
  {
    id: "outbox",
    suite: "Operations",
    name: "The e-mail outbox drains",
    critical: false,
    async run(q) {
      if (!q.config.RESEND_API_KEY)
        return skipped("No e-mail provider (RESEND_API_KEY): e-mails stay in the outbox by design, so there is nothing to drain.");
      const waiting = await outboxBacklog(accountDatabases(q.env), Date.now());
      expect(waiting === 0, `${waiting} e-mails have waited more than 5 minutes.`);
      return passed("No e-mail has waited more than 5 minutes.");
    },
  },
];
