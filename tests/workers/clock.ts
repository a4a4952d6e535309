import { env } from "cloudflare:workers";
import { claimTestClock, parseTestNow, shiftClock } from "~/lib/clock";

// With TEST_NOW set, every test file (and the Worker and Durable Objects, which share this isolate) sees the
// wall clock start at that instant. Without it, the real clock: tests must pass either way.
const testNow = (env as unknown as { TEST_NOW?: string }).TEST_NOW;
// The suite owns the clock: the Worker's own switch (applyTestClock) stands down.
claimTestClock();
if (testNow) {
  parseTestNow(testNow);
  shiftClock(testNow);
}
