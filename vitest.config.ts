import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import tsconfigPaths from "vite-tsconfig-paths";
import { markdownContent } from "./app/modules/content/markdown.vite";
import { defineConfig } from "vitest/config";
import { aliases } from "./vite.aliases";

// Kept apart from vite.config.ts so the Remix plugin never loads under vitest. Tests run inside workerd
// with the real D1, KV and Durable Objects from wrangler.toml; the worker tests need `npm run build` first.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    // npm test runs two vitest processes side by side (scripts/test.mjs): each lane keeps its own Vite cache, so two
    // dependency optimisations never write one directory at once on a fresh clone.
    cacheDir: process.env.VITEST_LANE ? `node_modules/.vite-${process.env.VITEST_LANE}` : undefined,
    resolve: { alias: aliases },
    plugins: [
      tsconfigPaths(),
      markdownContent(),
      cloudflareTest({
        main: "./workers/app.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // The e-mail queue (ADR 0056): e-mails the tests send go to a queue nobody consumes, so a test's fetch fake
          // never meets a delivery running in the background; the tests deliver with the consumer themselves
          // (createMessageBatch). EMAIL_QUEUE_LIVE is wrangler.toml's queue, consumed by the Worker as in production.
          // The push, digest, purge and cron queues likewise: the tests drain them with the Worker's consumer (tests/factories/queues.ts).
          queueProducers: {
            EMAIL_QUEUE: { queueName: "porchlight-email-tests" },
            EMAIL_QUEUE_LIVE: { queueName: "porchlight-email" },
            PUSH_QUEUE: { queueName: "porchlight-push-tests" },
            DIGEST_QUEUE: { queueName: "porchlight-digest-tests" },
            PURGE_QUEUE: { queueName: "porchlight-purge-tests" },
            CRON_QUEUE: { queueName: "porchlight-cron-tests" },
          },
          bindings: {
            TEST_MIGRATIONS: migrations,
            APP_ENV: "test",
            SESSION_SECRET: "test-session-secret-0123456789abcdefghijklmnop",
            ADMIN_EMAILS: "listed-admin@example.com",
            // Every flag at its default, whatever .dev.vars (written by `npm start`, read by the pool) turns on.
            FEATURE_FLAGS: "",
            STRIPE_WEBHOOK_SECRET: "whsec_porchlight_test_secret",
            // The e-mail provider's webhook signing secret (base64 after whsec_), for bounces and complaints (ADR 0071).
            RESEND_WEBHOOK_SECRET: "whsec_cG9yY2hsaWdodC10ZXN0LWVtYWlsLWV2ZW50cy1zZWNyZXQ=",
            // A fixed key for stored OAuth tokens (ADR 0069); tests point Google's endpoints at the fake (tests/factories/google.ts).
            TOKEN_ENCRYPTION_KEY: "dGVzdC1vbmx5LXRva2VuLWVuY3J5cHRpb24ta2V5ISE=",
            // Every fetch, scheduled event and Durable Object call holds D1 to production's limits (ADR 0055): a
            // statement over 100 parameters or 100 KB, or an invocation past 1,000 queries, fails the test.
            D1_LIMITS: "enforce",
            // New accounts go to the home database, where the tests' factories put theirs; the shard tests open the
            // second database with their own setting (tests/workers/shards.test.ts).
            SHARDS_ACCEPTING: "0",
            // The fake push service's host (tests/fakes/push-service.ts); honoured only outside production.
            PUSH_TEST_HOSTS: "push.fake.test",
            // `TEST_NOW=2027-03-14T06:30:00Z npm run test:unit` runs the suite as of that instant (tests/workers/clock.ts).
            ...(process.env.TEST_NOW ? { TEST_NOW: process.env.TEST_NOW } : {}),
          },
        },
      }),
    ],
    test: {
      include: ["tests/workers/**/*.test.ts", "app/**/*.test.ts", "workers/**/*.test.ts"],
      setupFiles: ["./tests/workers/clock.ts", "./tests/workers/apply-migrations.ts", "./tests/workers/d1-limits-check.ts"],
      globalSetup: ["./tests/fakes/global-setup.ts"],
      testTimeout: 30_000,
      // One workerd for all files: each runner otherwise boots its own Miniflare (~12 s apiece on 2 cores).
      // Tests keep apart by data (unique users and client addresses), see docs/decisions/0008.
      isolate: false,
      // Remix's packages are CommonJS; workerd loads them once pre-bundled to ESM.
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "react", "react-dom", "react-dom/server", "react/jsx-runtime", "isbot"],
          },
        },
      },
    },
  };
});
