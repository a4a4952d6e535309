import { afterEach } from "vitest";
import { takeD1LimitCrossings } from "~/lib/d1-limits";

// The Worker throws when a statement or an invocation crosses one of D1's production limits (ADR 0055), but a path
// may catch that error and carry on. Whatever happened, the test during which a limit was crossed fails.
afterEach(() => {
  const crossings = takeD1LimitCrossings();
  if (crossings.length > 0) throw new Error(`D1's production limits were crossed:\n${crossings.map((c) => c.message).join("\n")}`);
});
