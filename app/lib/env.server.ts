import * as z from "zod";
import { parseFlags } from "./flags";

// Bindings and variables the Worker receives. `wrangler types` generates CloudflareBindings from
// wrangler.toml (worker-configuration.d.ts); secrets and optional bindings are added here.
export interface Env extends CloudflareBindings {
  SESSION_SECRET?: string;
  RESEND_API_KEY?: string;
  /** The provider's webhook signing secret (whsec_…): bounces and complaints of e-mails sent as Porchlight. */
  RESEND_WEBHOOK_SECRET?: string;
  PUBLIC_URL?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_PRICE_MONTHLY?: string;
  STRIPE_PRICE_YEARLY?: string;
  STRIPE_PRICE_TEAM_MONTHLY?: string;
  STRIPE_PRICE_TEAM_YEARLY?: string;
  STRIPE_API_BASE?: string;
  TURNSTILE_SITE_KEY?: string;
  TURNSTILE_SECRET_KEY?: string;
  TURNSTILE_SKIP_HOSTS?: string;
  SALES_INBOX?: string;
  INTAKE_DOMAIN?: string;
  /** Inside a request: the home database (shard 0), whatever shard the request's DB was routed to. Not a binding. */
  HOME_DB?: D1Database;
  AI?: Ai;
  AI_MODEL?: string;
  AI_GATEWAY_URL?: string;
  AI_GATEWAY_KEY?: string;
  AI_GATEWAY_MODEL?: string;
  AI_DAILY_QUOTA?: string;
  RUM_SAMPLE_RATE?: string;
  /** "off" stops recording request timings for the Operations Center (the bench compares with and without). */
  OPS_RECORDING?: string;
  /** "enforce" (the worker tests) or "measure" (the bench): D1 held to production's limits per invocation (app/lib/d1-limits.ts). */
  D1_LIMITS?: string;
  /** Outside production only: run as if the wall clock read this ISO instant (app/lib/clock.ts). */
  TEST_NOW?: string;
  /**
   * "on" (the end-to-end tests' server, scripts/serve-e2e.mjs, outside production only): GET /__scheduled?cron=<expr>
   * runs the cron's jobs, as `wrangler dev --test-scheduled` does for `npm start`.
   */
  SCHEDULED_ROUTE?: string;
  /** Feature flags changed from the spec's defaults, e.g. "QA_PAGE=on" (app/lib/flags.ts). */
  FEATURE_FLAGS?: string;
  /** Web Push: the VAPID key pair (`node scripts/vapid-keys.mjs`) and who the push services may contact. */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  /** Outside production only: further hosts push may be sent to (the tests' fake push service), comma-separated. */
  PUSH_TEST_HOSTS?: string;
  /** Encrypts stored OAuth tokens (Gmail): base64 of 32 random bytes (`openssl rand -base64 32`). */
  TOKEN_ENCRYPTION_KEY?: string;
  /** Gmail: the OAuth client Google issued, and where Google's endpoints are (the defaults, or a local fake). */
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  GOOGLE_ACCOUNTS_BASE?: string;
  GOOGLE_OAUTH_BASE?: string;
  GMAIL_API_BASE?: string;
}

const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean),
  );

const ConfigSchema = z
  .object({
    APP_ENV: z.enum(["development", "test", "production"]).default("production"),
    SESSION_SECRET: z
      .string({ error: "SESSION_SECRET is not set. Set it with `wrangler secret put SESSION_SECRET` (32+ random characters)." })
      .min(32, "SESSION_SECRET must be at least 32 characters long."),
    ADMIN_EMAILS: csv,
    MAIL_FROM: z.string().min(3).default("Porchlight <hello@porchlight.app>"),
    RESEND_API_KEY: z.string().min(1).optional(),
    RESEND_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "RESEND_WEBHOOK_SECRET must be the signing secret the provider shows (whsec_ and base64).")
      .optional(),
    PUBLIC_URL: z.url().optional(),
    STRIPE_SECRET_KEY: z.string().startsWith("sk_", "STRIPE_SECRET_KEY must start with sk_.").optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith("whsec_", "STRIPE_WEBHOOK_SECRET must start with whsec_.").optional(),
    STRIPE_PRICE_MONTHLY: z.string().min(1).optional(),
    STRIPE_PRICE_YEARLY: z.string().min(1).optional(),
    // The Team plan's per-member prices: $35 a month, $336 a year.
    STRIPE_PRICE_TEAM_MONTHLY: z.string().min(1).optional(),
    STRIPE_PRICE_TEAM_YEARLY: z.string().min(1).optional(),
    // Only for tests: where the Stripe SDK sends requests (a local fake of the Stripe API).
    STRIPE_API_BASE: z.url().optional(),
    TURNSTILE_SITE_KEY: z.string().min(1).optional(),
    TURNSTILE_SECRET_KEY: z.string().min(1).optional(),
    TURNSTILE_SKIP_HOSTS: csv,
    // AI: the Workers AI model when the AI binding is present, an OpenAI-style endpoint (AI Gateway
    // or any /chat/completions API) tried next, and drafts per user per day. Neither engine set: the offline drafter.
    AI_MODEL: z.string().min(3).optional(),
    AI_GATEWAY_URL: z.url("AI_GATEWAY_URL must be a URL, e.g. https://gateway.example/v1/openai.").optional(),
    AI_GATEWAY_KEY: z.string().min(1).optional(),
    AI_GATEWAY_MODEL: z.string().min(1).optional(),
    AI_DAILY_QUOTA: z.coerce.number().int("AI_DAILY_QUOTA must be a whole number.").min(1).max(100_000).default(100),
    // The domain of agents' lead intake addresses (<key>@INTAKE_DOMAIN): Email Routing sends its mail to the Worker.
    INTAKE_DOMAIN: z
      .string()
      .regex(/^(?=.{3,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/, "INTAKE_DOMAIN must be a domain name, e.g. leads.porchlight.app.")
      .default("leads.porchlight.app"),
    // Where contact-form messages are sent.
    SALES_INBOX: z.email("SALES_INBOX must be an e-mail address.").default("hello@porchlight.app"),
    // The share of signed-in page loads that report their web vitals to the Operations Center (0 to 1).
    RUM_SAMPLE_RATE: z.coerce
      .number("RUM_SAMPLE_RATE must be a number from 0 to 1.")
      .min(0, "RUM_SAMPLE_RATE must be a number from 0 to 1.")
      .max(1, "RUM_SAMPLE_RATE must be a number from 0 to 1.")
      .default(1),
    // Web Push: a P-256 key pair in base64url (public: the 65-byte point; private: the 32-byte scalar).
    VAPID_PUBLIC_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, "VAPID_PUBLIC_KEY must be the base64url public key `node scripts/vapid-keys.mjs` prints (87 characters).")
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, "VAPID_PRIVATE_KEY must be the base64url private key `node scripts/vapid-keys.mjs` prints (43 characters).")
      .optional(),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, "VAPID_SUBJECT must be a mailto: or https: address the push services can reach you at.")
      .optional(),
    // Outside production only (getConfig drops it there): hosts push may be sent to besides the browsers' push
    // services, for the tests' fake push service (app/modules/push/endpoint.ts).
    PUSH_TEST_HOSTS: csv.refine(
      (hosts) => hosts.every((host) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) && !/^[\d.]+$/.test(host)),
      "PUSH_TEST_HOSTS must be host names (no IP addresses, ports or schemes), comma-separated.",
    ),
    // Stored OAuth tokens are encrypted with this AES-256 key (app/modules/gmail/token-crypto.server.ts).
    TOKEN_ENCRYPTION_KEY: z
      .string()
      .regex(/^[A-Za-z0-9+/]{43}=$/, "TOKEN_ENCRYPTION_KEY must be base64 of 32 random bytes (44 characters), e.g. from `openssl rand -base64 32`.")
      .optional(),
    // Gmail (ADR 0069): the OAuth client, and Google's three endpoints; only the deployment's settings change them.
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_ACCOUNTS_BASE: z.url("GOOGLE_ACCOUNTS_BASE must be a URL.").default("https://accounts.google.com"),
    GOOGLE_OAUTH_BASE: z.url("GOOGLE_OAUTH_BASE must be a URL.").default("https://oauth2.googleapis.com"),
    GMAIL_API_BASE: z.url("GMAIL_API_BASE must be a URL.").default("https://gmail.googleapis.com"),
    FEATURE_FLAGS: z
      .string()
      .optional()
      .transform((text, ctx) => {
        try {
          return parseFlags(text);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
          return z.NEVER;
        }
      }),
  })
  .superRefine((config, ctx) => {
    if (config.FEATURE_FLAGS?.PUSH_NOTIFICATIONS && !(config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["FEATURE_FLAGS"],
        message:
          "PUSH_NOTIFICATIONS is on, but VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not both set (make a pair with `node scripts/vapid-keys.mjs`).",
      });
    }
    // Tokens go only to Google's endpoints: in production over https to a named host, with nothing but an origin.
    for (const name of ["GOOGLE_ACCOUNTS_BASE", "GOOGLE_OAUTH_BASE", "GMAIL_API_BASE"] as const) {
      const problem = apiBaseProblem(config[name], config.APP_ENV === "production");
      if (problem) ctx.addIssue({ code: "custom", path: [name], message: `${name} ${problem}` });
    }
  });

/**
 * Why `base` cannot be where an API is called, or null. An origin only (no path, query or credentials); in production
 * https to a host name, never an IP address. Outside production a local fake (http://127.0.0.1:port) is allowed.
 */
function apiBaseProblem(base: string, production: boolean): string | null {
  const url = new URL(base);
  if (url.username || url.password) return "must not carry a user name or password.";
  if (url.pathname !== "/" || url.search || url.hash) return "must be an origin only, e.g. https://host.example.";
  if (!production) return url.protocol === "https:" || url.protocol === "http:" ? null : "must be an http(s) address.";
  if (url.protocol !== "https:") return "must be an https address in production.";
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(url.hostname) || url.hostname.startsWith("[")) return "must name a host, not an IP address.";
  return null;
}

/** Every queue message names the database that holds its rows (ADR 0060); absent means the home database. */
interface ShardedMessage {
  shard?: number;
}

/** What goes on the e-mail queue: the email_outbox row to deliver (ADR 0056). */
export interface EmailQueueMessage extends ShardedMessage {
  outboxId: string;
}

/** What goes on the push queue: the push_outbox row to deliver (ADR 0056). */
export interface PushQueueMessage extends ShardedMessage {
  pushId: string;
}

/** What the digest cron puts on the digest queue: one agent whose digest of `day` (their local date) is due. */
export interface DigestQueueMessage extends ShardedMessage {
  userId: string;
  day: string;
}

/** What the purge cron puts on the purge queue: one account whose 30 days are over. */
export interface PurgeQueueMessage extends ShardedMessage {
  userId: string;
}

/**
 * What the cron puts on the cron queue: one database's passes of the jobs on accounts' rows for the scheduled event
 * `cron` at `scheduledTime` (ADR 0064).
 */
export interface CronQueueMessage {
  cron: string;
  scheduledTime: number;
  shard: number;
}

export type Config = z.infer<typeof ConfigSchema> & {
  isDev: boolean;
  emailQueue: Queue<EmailQueueMessage>;
  pushQueue: Queue<PushQueueMessage>;
  digestQueue: Queue<DigestQueueMessage>;
  purgeQueue: Queue<PurgeQueueMessage>;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

// Parsed once per env object: the bindings object is stable for an isolate, so this is per deployment.
const cache = new WeakMap<object, Config>();

export function getConfig(env: Env): Config {
  const hit = cache.get(env);
  if (hit) return hit;
  const parsed = ConfigSchema.safeParse({
    APP_ENV: env.APP_ENV || undefined,
    SESSION_SECRET: env.SESSION_SECRET || undefined,
    ADMIN_EMAILS: env.ADMIN_EMAILS,
    MAIL_FROM: env.MAIL_FROM || undefined,
    RESEND_API_KEY: env.RESEND_API_KEY || undefined,
    RESEND_WEBHOOK_SECRET: env.RESEND_WEBHOOK_SECRET?.trim() || undefined,
    PUBLIC_URL: env.PUBLIC_URL || undefined,
    STRIPE_SECRET_KEY: env.STRIPE_SECRET_KEY || undefined,
    STRIPE_WEBHOOK_SECRET: env.STRIPE_WEBHOOK_SECRET || undefined,
    STRIPE_PRICE_MONTHLY: env.STRIPE_PRICE_MONTHLY || undefined,
    STRIPE_PRICE_YEARLY: env.STRIPE_PRICE_YEARLY || undefined,
    STRIPE_PRICE_TEAM_MONTHLY: env.STRIPE_PRICE_TEAM_MONTHLY || undefined,
    STRIPE_PRICE_TEAM_YEARLY: env.STRIPE_PRICE_TEAM_YEARLY || undefined,
    STRIPE_API_BASE: env.STRIPE_API_BASE || undefined,
    TURNSTILE_SITE_KEY: env.TURNSTILE_SITE_KEY || undefined,
    TURNSTILE_SECRET_KEY: env.TURNSTILE_SECRET_KEY || undefined,
    TURNSTILE_SKIP_HOSTS: env.TURNSTILE_SKIP_HOSTS,
    SALES_INBOX: env.SALES_INBOX || undefined,
    INTAKE_DOMAIN: env.INTAKE_DOMAIN?.trim().toLowerCase() || undefined,
    AI_MODEL: env.AI_MODEL || undefined,
    AI_GATEWAY_URL: env.AI_GATEWAY_URL || undefined,
    AI_GATEWAY_KEY: env.AI_GATEWAY_KEY || undefined,
    AI_GATEWAY_MODEL: env.AI_GATEWAY_MODEL || undefined,
    AI_DAILY_QUOTA: env.AI_DAILY_QUOTA || undefined,
    RUM_SAMPLE_RATE: env.RUM_SAMPLE_RATE || undefined,
    FEATURE_FLAGS: env.FEATURE_FLAGS || undefined,
    VAPID_PUBLIC_KEY: env.VAPID_PUBLIC_KEY || undefined,
    VAPID_PRIVATE_KEY: env.VAPID_PRIVATE_KEY || undefined,
    VAPID_SUBJECT: env.VAPID_SUBJECT || undefined,
    PUSH_TEST_HOSTS: env.PUSH_TEST_HOSTS,
    TOKEN_ENCRYPTION_KEY: env.TOKEN_ENCRYPTION_KEY?.trim() || undefined,
    GOOGLE_CLIENT_ID: env.GOOGLE_CLIENT_ID || undefined,
    GOOGLE_CLIENT_SECRET: env.GOOGLE_CLIENT_SECRET || undefined,
    GOOGLE_ACCOUNTS_BASE: env.GOOGLE_ACCOUNTS_BASE || undefined,
    GOOGLE_OAUTH_BASE: env.GOOGLE_OAUTH_BASE || undefined,
    GMAIL_API_BASE: env.GMAIL_API_BASE || undefined,
  });
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Porchlight is misconfigured. ${messages.join(" ")}`);
  }
  const isDev = parsed.data.APP_ENV !== "production";
  // A production deployment never sends push anywhere but the browsers' push services, whatever it is told.
  const config = {
    ...parsed.data,
    PUSH_TEST_HOSTS: isDev ? parsed.data.PUSH_TEST_HOSTS : [],
    isDev,
    emailQueue: env.EMAIL_QUEUE as Queue<EmailQueueMessage>,
    pushQueue: env.PUSH_QUEUE as Queue<PushQueueMessage>,
    digestQueue: env.DIGEST_QUEUE as Queue<DigestQueueMessage>,
    purgeQueue: env.PURGE_QUEUE as Queue<PurgeQueueMessage>,
  };
  cache.set(env, config);
  return config;
}
