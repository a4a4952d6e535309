import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { NonceProvider } from "~/components/ui/nonce";
import { logError, routePattern } from "~/lib/log.server";

/**
 * Every error a loader, action or render throws, logged once as one compact line (Remix's default prints the
 * whole stack). Answers the app chose (a thrown Response, a 404 or 405) and requests the browser gave up on are
 * not errors of ours.
 */
export const handleError: HandleErrorFunction = (error, { request, params }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logError(
    "server_error",
    routePattern(new URL(request.url).pathname, params),
    isRouteErrorResponse(error) ? ((error as { error?: unknown }).error ?? error.statusText) : error,
  );
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
    {
      nonce,
      signal: request.signal,
      onError(error: unknown) {
        logError("render_error", routePattern(new URL(request.url).pathname, remixContext.staticHandlerContext.matches.at(-1)?.params ?? {}), error);
        status = 500;
      },
    },
  );
  // Crawlers get the whole document at once; people get it streamed.
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}

// The rest of the Worker (/api, the cron's jobs, the Durable Objects) is built here with the routes, so the deployed
// Worker holds each module once: workers/app.ts takes it from this build's `entry.module` (ADR 0052).
export {
  createWorker,
  InsightsCache,
  OpsRecorder,
  RestoreDrillWorkflow,
  BackupWorkflow,
  AgentRestoreWorkflow,
  AccountMoveWorkflow,
  HandoverWorkflow,
} from "../workers/worker";
