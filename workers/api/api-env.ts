import type { Env } from "~/lib/env.server";

/** What every /api sub-app's context carries: the Worker's bindings. Its own file, below the index that mounts the sub-apps. */
export type ApiEnv = { Bindings: Env };
