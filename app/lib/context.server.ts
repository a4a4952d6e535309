import { createDb, type Db } from "~/db/client.server";
import { getConfig, type Config, type Env } from "./env.server";

export type RequestContext = {
  cloudflare: { env: Env; ctx: ExecutionContext };
  db: Db;
  config: Config;
  /** Per-request CSP nonce; entry.server puts it on every inline and module script. */
  cspNonce: string;
  /** Per-request memo for work several loaders share (the signed-in user, the subscription). */
  memo: Map<string, Promise<unknown>>;
  /** The Worker's own request handler, for the QA Dashboard's in-process checks (set by workers/worker.ts). */
  dispatch: AppDispatch | null;
};

export type AppDispatch = (request: Request, env: Env) => Promise<Response>;

declare module "@remix-run/cloudflare" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging needs an interface, not a type alias
  interface AppLoadContext extends RequestContext {}
}

export function createRequestContext(env: Env, ctx: ExecutionContext, cspNonce: string): RequestContext {
  return {
    cloudflare: { env, ctx },
    db: createDb(env.DB),
    config: getConfig(env),
    cspNonce,
    memo: new Map(),
    dispatch: null,
  };
}

export function memoize<T>(context: RequestContext, key: string, compute: () => Promise<T>): Promise<T> {
  let hit = context.memo.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = compute();
    context.memo.set(key, hit);
  }
  return hit;
}

/** The origin that links in e-mails, feeds and pages point at: the configured PUBLIC_URL, else the request's own. */
export function appOrigin(context: RequestContext, request: Request): string {
  return context.config.PUBLIC_URL ?? new URL(request.url).origin;
}
