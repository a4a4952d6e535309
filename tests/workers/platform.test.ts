import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../workers/app";
import { JOBS } from "../../workers/cron";
import { heartbeatJob } from "../../workers/cron/heartbeat.job";
import { createDb } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";
import { ConfigError, getConfig, type Env } from "~/lib/env.server";
import { sendEmail } from "~/lib/mailer.server";
import { requestContext } from "../factories/context";
import { uniqueEmail } from "../factories/users";

const incoming = (url: string) => new Request(url) as Request<unknown, IncomingRequestCfProperties>;

describe("configuration", () => {
  it("names a missing secret in a clear error", () => {
    expect(() => getConfig({ ...(env as Env), SESSION_SECRET: undefined })).toThrowError(ConfigError);
    expect(() => getConfig({ ...(env as Env), SESSION_SECRET: undefined })).toThrowError(/SESSION_SECRET is not set/);
    expect(() => getConfig({ ...(env as Env), SESSION_SECRET: "short" })).toThrowError(/SESSION_SECRET must be at least 32/);
  });

  it("reads the feature flags: their defaults, changed by FEATURE_FLAGS, and a bad or removed entry named", () => {
    const base = { ...(env as Env), FEATURE_FLAGS: undefined };
    expect(getConfig(base).FEATURE_FLAGS).toEqual({
      QA_PAGE: false,
      PUSH_NOTIFICATIONS: false,
      TEAM_INVITES: false,
    });
    const changed = getConfig({ ...base, FEATURE_FLAGS: " qa_page=on, PUSH_NOTIFICATIONS=off ,TEAM_INVITES=true" }).FEATURE_FLAGS;
    expect(changed).toEqual({ QA_PAGE: true, PUSH_NOTIFICATIONS: false, TEAM_INVITES: true });
    // The spec's flags that switched nothing are gone, and naming one says why rather than "unknown".
    expect(() => getConfig({ ...base, FEATURE_FLAGS: "QA_PAGE=on,ADV_REPORTS=on" })).toThrowError(
      /ADV_REPORTS, which was removed because it switched nothing: Reports is part of every plan/,
    );
    expect(() => getConfig({ ...base, FEATURE_FLAGS: "QA_PAGES=on" })).toThrowError(/unknown flag "QA_PAGES"/);
    expect(() => getConfig({ ...base, FEATURE_FLAGS: "QA_PAGE=maybe" })).toThrowError(/write QA_PAGE=on or QA_PAGE=off/);
    expect(() => getConfig({ ...base, FEATURE_FLAGS: "QA_PAGE" })).toThrowError(ConfigError);
  });

  it("reads RUM_SAMPLE_RATE, and refuses one outside 0 to 1", () => {
    expect(getConfig({ ...(env as Env), RUM_SAMPLE_RATE: "0.25" }).RUM_SAMPLE_RATE).toBe(0.25);
    expect(getConfig({ ...(env as Env), RUM_SAMPLE_RATE: undefined }).RUM_SAMPLE_RATE).toBe(1);
    expect(() => getConfig({ ...(env as Env), RUM_SAMPLE_RATE: "2" })).toThrowError(/RUM_SAMPLE_RATE must be a number from 0 to 1/);
  });

  it("answers every page with that error instead of running misconfigured", async () => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(incoming("http://localhost/auth"), { ...(env as Env), SESSION_SECRET: undefined }, ctx);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("SESSION_SECRET is not set");
  });
});

describe("API", () => {
  it("reports D1 and KV health", async () => {
    const response = await worker.fetch(incoming("http://localhost/api/health"), env as Env, createExecutionContext());
    const body = await response.json<{ status: string; checks: Record<string, { ok: boolean }> }>();
    expect(body.status).toBe("ok");
    expect(body.checks.d1?.ok).toBe(true);
    expect(body.checks.kv?.ok).toBe(true);
  });
});

describe("scheduled jobs", () => {
  it("answers GET /__scheduled only on the end-to-end tests' server: never in production, never without SCHEDULED_ROUTE", async () => {
    // A cron expression with no jobs: the answer says whether the route ran the scheduled handler, and nothing is run.
    const url = "http://localhost/__scheduled?cron=0+0+1+1+*";
    const on = await worker.fetch(incoming(url), { ...(env as Env), APP_ENV: "development", SCHEDULED_ROUTE: "on" }, createExecutionContext());
    expect(on.status).toBe(200);
    expect(await on.text()).toBe("Ran scheduled event");
    for (const settings of [
      { APP_ENV: "production", SCHEDULED_ROUTE: "on" },
      { APP_ENV: "development", SCHEDULED_ROUTE: undefined },
      { APP_ENV: "development", SCHEDULED_ROUTE: "yes" },
    ]) {
      const response = await worker.fetch(incoming(url), { ...(env as Env), ...settings }, createExecutionContext());
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("Ran scheduled event");
    }
  });

  it("starts the five-minute cron with the heartbeat, which says how late the scheduler ran", async () => {
    expect(JOBS["*/5 * * * *"]![0]).toBe(heartbeatJob);
    // The job alone (its run is recorded by runScheduled, tested with every job in operations.test.ts): the whole
    // five-minute run would also purge, remind, back up and mail for every account here.
    const scheduledTime = Date.now() - 90_000;
    expect(await heartbeatJob(createDb(env.DB), createScheduledController({ cron: "*/5 * * * *", scheduledTime: new Date(scheduledTime) }))).toMatch(
      /^started (9\d|1\d\d) s late$/,
    );
    expect(await heartbeatJob(createDb(env.DB), createScheduledController({ cron: "*/5 * * * *", scheduledTime: new Date(Date.now() + 1000) }))).toBe(
      "started on time",
    );
  });
});

describe("mailer", () => {
  afterEach(() => vi.restoreAllMocks());

  it("records every e-mail in the outbox, queued for the e-mail queue's consumer (tests/workers/email-queue.test.ts)", async () => {
    const to = uniqueEmail("outbox");
    const result = await sendEmail(requestContext(), { kind: "test", to, subject: "Hello", text: "Hi", html: "<p>Hi</p>" });
    expect(result.status).toBe("queued");
    const row = await createDb(env.DB).select().from(emailOutbox).where(eq(emailOutbox.id, result.id)).get();
    expect(row).toMatchObject({ toAddress: to, status: "queued", attempts: 0 });
  });

  it("marks an e-mail dead at once when the queue refuses it, so the Operations Center lists it", async () => {
    const refusing = { send: async () => Promise.reject(new Error("queue unavailable")) } as unknown as Queue;
    vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await sendEmail(requestContext({ EMAIL_QUEUE: refusing }), {
      kind: "test",
      to: uniqueEmail(),
      subject: "Two",
      text: "2",
      html: "<p>2</p>",
    });
    expect(result.status).toBe("dead");
    const row = await createDb(env.DB).select().from(emailOutbox).where(eq(emailOutbox.id, result.id)).get();
    expect(row).toMatchObject({ status: "dead", error: "not queued: queue unavailable" });
  });
});
