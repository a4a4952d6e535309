import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { applyTestClock } from "~/lib/clock";
import { createRequestContext } from "~/lib/context.server";
import { limitD1, reportD1 } from "~/lib/d1-limits";
import { openRequestDatabase } from "~/lib/d1-session.server";
import { ConfigError, getConfig, type Env } from "~/lib/env.server";
import { logError } from "~/lib/log.server";
import { createNonce, isCrossOriginWrite, originOf, withSecurityHeaders } from "~/lib/security";
import { sessionIdFrom } from "~/modules/auth/session.server";
import { receiveLeadEmail } from "~/modules/intake/intake.server";
import { readReplyAddress } from "~/modules/conversations/reply-address.server";
import { receiveReply } from "~/modules/conversations/replies.server";
import { routeBySession } from "~/modules/shards/directory.server";
import { handlerSamples, timeRouteHandlers } from "~/modules/ops/handler-timing";
import { NO_ROUTE, queueSamples, registerRouteIds, remixRouteIdPatterns, remixRoutePatterns, type Sample } from "~/modules/ops/metrics";
import { api, apiRoutes } from "./api";
import { runScheduled } from "./cron";
import { consumeQueue } from "./queues";
import { appPageAssets } from "~/modules/sync/app-page-assets";
import { serviceWorkerScript } from "./service-worker";

// The Worker's code: /api to the Hono app, every other path to Remix, the cron's jobs, the queues' consumers, lead e-mails,
// the Durable Object classes.
// It is compiled into the Remix server build (app/entry.server.tsx exports it), beside the routes, so the deployed
// Worker holds each module once; workers/app.ts, the entry wrangler bundles, takes all of it from that build (ADR 0052).
export { InsightsCache } from "./durable-objects/insights.do";
export { OpsRecorder } from "./durable-objects/ops-recorder.do";
export { RestoreDrillWorkflow } from "./workflows/restore-drill.workflow";
export { BackupWorkflow } from "./workflows/backup.workflow";
export { AgentRestoreWorkflow } from "./workflows/agent-restore.workflow";
export { AccountMoveWorkflow } from "./workflows/account-move.workflow";
export { HandoverWorkflow } from "./workflows/handover.workflow";

function plainError(status: number, message: string) {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * GET /__scheduled?cron=<expr> on the end-to-end tests' server (SCHEDULED_ROUTE, never in production): runs the
 * scheduled handler with that cron, as `wrangler dev --test-scheduled` does, and answers once its jobs have run.
 */
async function runScheduledNow(url: URL, workerEnv: Env): Promise<Response> {
  await scheduledJobs({ cron: url.searchParams.get("cron") ?? "", scheduledTime: Date.now(), noRetry() {} }, workerEnv);
  return plainError(200, "Ran scheduled event");
}

/** The cron's jobs for one scheduled event, metered as one invocation. */
async function scheduledJobs(controller: ScheduledController, workerEnv: Env): Promise<void> {
  applyTestClock(workerEnv);
  const env = limitD1(workerEnv, `scheduled ${controller.cron}`);
  // Awaited rather than handed to waitUntil: a scheduled event lasts until its work is done either way, and this
  // way /__scheduled answers only once the jobs have run. With waitUntil it answered at once, and an e2e test that read
  // /operations right after raced the monitoring job: under load the page rendered before the alert was opened
  // (operations.spec failed once in five full runs).
  await runScheduled(controller, env);
  reportD1(env);
}

const isWrite = (request: Request) => request.method !== "GET" && request.method !== "HEAD";

/**
 * A write of an account being copied to its team's database (ADR 0060): refused, so nothing is written to the old
 * database after its rows were copied. The move takes about a minute; the join page shows it.
 */
function movingRefusal() {
  return plainError(423, "Your account is moving to your team's database: it is read-only for a minute. Try again once the move has finished.");
}

/** The Worker's handlers (fetch, scheduled and queue) over the server build it is part of. */
export function createWorker(build: ServerBuild) {
  // Every route's loader and action note their time against the request (ADR 0024).
  const handleRemix = createRequestHandler(timeRouteHandlers(build));
  const serviceWorker = serviceWorkerScript(build.assets.version, appPageAssets(build.assets));
  const remixRoute = remixRoutePatterns(build.routes);
  registerRouteIds(remixRouteIdPatterns(build.routes));

  /** The route pattern a request is counted under: never its URL, which may hold ids. */
  function routeOf(request: Request, url: URL, response: Response): string {
    if (url.pathname === "/sw.js") return "/sw.js";
    if (url.pathname === "/api" || url.pathname.startsWith("/api/"))
      return apiRoutes.get(request) ?? (response.status === 403 ? "(refused)" : NO_ROUTE);
    return response.status === 403 && isCrossOriginWrite(request) ? "(refused)" : remixRoute(url.pathname);
  }

  const handler = {
    async fetch(request, workerEnv, ctx) {
      applyTestClock(workerEnv);
      const started = Date.now();
      const nonce = createNonce();
      const url = new URL(request.url);
      if (url.pathname === "/__scheduled" && workerEnv.SCHEDULED_ROUTE === "on" && workerEnv.APP_ENV !== "production")
        return runScheduledNow(url, workerEnv);
      // With D1_LIMITS on (tests, bench), this request's D1 queries are counted against production's limits.
      const limited = limitD1(workerEnv, `fetch ${request.method} ${url.pathname}`);
      // Every read and write of this request goes through one D1 session (ADR 0057).
      const database = openRequestDatabase(limited, request);
      const env = database.env;
      const isPrivate = sessionIdFrom(request) !== null;
      let response: Response;
      let remixContext: object | null = null;
      try {
        if (isCrossOriginWrite(request)) {
          response = plainError(403, "Cross-origin request refused.");
        } else if (url.pathname === "/sw.js") {
          response = new Response(serviceWorker, {
            headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
          });
        } else if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
          const account = await routeBySession(env, request);
          response = account.moving && isWrite(request) ? movingRefusal() : await api.fetch(request, env, ctx);
        } else {
          // A signed-in request reads and writes its account's database from its first query (ADR 0060).
          const account = await routeBySession(env, request);
          if (account.moving && isWrite(request) && url.pathname !== "/auth/signout") {
            response = movingRefusal();
          } else {
            const context = createRequestContext(env, ctx, nonce);
            // The QA Dashboard's checks send their requests through this same handler, in-process.
            context.dispatch = (inner, innerEnv) => handler.fetch(inner as Request<unknown, IncomingRequestCfProperties>, innerEnv, ctx);
            remixContext = context;
            response = await handleRemix(request, context);
          }
        }
      } catch (error) {
        if (error instanceof ConfigError) {
          console.error(error.message);
          response = plainError(500, error.message);
        } else {
          // Errors inside Remix and the /api app are logged where their route is known; this is what escaped both.
          // The path may hold ids, so only its first segment is logged.
          logError("unhandled_error", `/${url.pathname.split("/")[1] ?? ""}`, error);
          response = plainError(500, "Something went wrong on our side. Please try again.");
        }
      }
      // The Operations Center's request timings: recorded after the answer is out (ADR 0024).
      if (env.OPS_RECORDING !== "off" && env.OPS) {
        const route = routeOf(request, url, response);
        const samples: Sample[] = [
          { metric: "request", route, value: Date.now() - started, status: response.status },
          ...(remixContext ? handlerSamples(remixContext, route) : []),
        ];
        queueSamples(env.OPS, samples, (promise) => ctx.waitUntil(promise));
      }
      reportD1(limited);
      // "Connect Gmail" posts a form that is redirected to Google's consent page (ADR 0069).
      const formTargets = [originOf(env.GOOGLE_ACCOUNTS_BASE, "https://accounts.google.com")];
      const secured = withSecurityHeaders(response, { nonce, private: isPrivate, formTargets });
      const bookmark = database.bookmarkCookie();
      if (bookmark) secured.headers.append("Set-Cookie", bookmark);
      return secured;
    },

    async scheduled(controller, workerEnv, _ctx) {
      await scheduledJobs(controller, workerEnv);
    },

    // Lead intake by e-mail (ADR 0065) and contacts' replies (ADR 0071): Email Routing hands every e-mail to the intake
    // domain here; one to a reply address (reply-<key>@) is a reply, any other one a lead. A message that is not taken
    // is rejected with the reason, which the sender's server returns as a bounce.
    async email(message, workerEnv, ctx) {
      applyTestClock(workerEnv);
      const env = limitD1(workerEnv, "email");
      const isReply = readReplyAddress(message.to, getConfig(env).INTAKE_DOMAIN) !== null;
      const outcome = isReply ? await receiveReply(env, ctx, message) : await receiveLeadEmail(env, ctx, message);
      if (!outcome.ok) {
        message.setReject(outcome.reject);
        const event = isReply ? "reply_email_rejected" : "lead_email_rejected";
        console.log(JSON.stringify({ event, reason: outcome.reject, size: message.rawSize }));
      }
      reportD1(env);
    },

    // The e-mail and push queues with their dead letters, the digest's fan-out and the account purge (ADR 0056).
    async queue(batch, workerEnv, ctx) {
      applyTestClock(workerEnv);
      const env = limitD1(workerEnv, `queue ${batch.queue}`);
      await consumeQueue(batch, env, ctx);
      reportD1(env);
    },
  } satisfies ExportedHandler<Env>;
  return handler;
}
