import { env } from "cloudflare:workers";
import { parseTestNow, shiftClock } from "~/lib/clock";

// With TEST_NOW set, every test file (and the Worker and Durable Objects, which share this isolate) sees the
// wall clock start at that instant. Without it, the real clock: tests must pass either way.
const testNow = (env as unknown as { TEST_NOW?: string }).TEST_NOW;
if (testNow) {
  parseTestNow(testNow);
  shiftClock(testNow);
}
