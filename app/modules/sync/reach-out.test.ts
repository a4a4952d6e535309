import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dueReachOut, markLeft, outcomesFor, readReachOut, REACH_OUT_ASK_WITHIN_MS, rememberReachOut } from "./reach-out";

// The device's memory of a Call or Text tap, and when coming back asks about it. The Worker has no window: a
// Map-backed localStorage stands in for the browser's.
const AGENT = "agent-1";
const T0 = Date.UTC(2026, 10, 28, 15, 0);

beforeEach(() => {
  const items = new Map<string, string>();
  const storage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
  (globalThis as unknown as { window: unknown }).window = { localStorage: storage };
});
afterEach(() => {
  delete (globalThis as unknown as { window?: unknown }).window;
});

describe("How did it go?", () => {
  it("asks once the agent has left the page after the tap, and not before", () => {
    rememberReachOut({ userId: AGENT, contactId: "c1", name: "Jane Whitmore", kind: "call" }, T0);
    expect(dueReachOut(AGENT, T0 + 1_000)).toBeNull();
    markLeft();
    expect(dueReachOut(AGENT, T0 + 1_000)).toMatchObject({ contactId: "c1", name: "Jane Whitmore", kind: "call", at: T0, left: true });
  });

  it("asks a page opened well after the tap (the app was closed during the call)", () => {
    rememberReachOut({ userId: AGENT, contactId: "c1", name: "Jane Whitmore", kind: "text" }, T0);
    expect(dueReachOut(AGENT, T0 + 4_999)).toBeNull();
    expect(dueReachOut(AGENT, T0 + 5_000)).toMatchObject({ kind: "text" });
  });

  it("drops a tap that is too old, from the future, or another agent's on a shared phone", () => {
    rememberReachOut({ userId: AGENT, contactId: "c1", name: "A", kind: "call" }, T0);
    expect(dueReachOut(AGENT, T0 + REACH_OUT_ASK_WITHIN_MS + 1)).toBeNull();
    expect(readReachOut()).toBeNull();
    rememberReachOut({ userId: AGENT, contactId: "c1", name: "A", kind: "call" }, T0);
    expect(dueReachOut("agent-2", T0 + 10_000)).toBeNull();
    expect(readReachOut()).toBeNull();
    rememberReachOut({ userId: AGENT, contactId: "c1", name: "A", kind: "call" }, T0);
    expect(dueReachOut(AGENT, T0 - 1)).toBeNull();
  });

  it("ignores what it cannot read", () => {
    window.localStorage.setItem("porchlight:reach-out", "{not json");
    expect(readReachOut()).toBeNull();
    window.localStorage.setItem("porchlight:reach-out", JSON.stringify({ userId: AGENT }));
    expect(dueReachOut(AGENT, T0)).toBeNull();
  });

  it("offers every outcome, the one that fits the tap first, each logged as a call or a text", () => {
    expect(outcomesFor("call").map((o) => o.id)).toEqual(["talked", "voicemail", "no_answer", "texted"]);
    expect(outcomesFor("text").map((o) => o.id)).toEqual(["texted", "talked", "voicemail", "no_answer"]);
    expect(outcomesFor("call").map((o) => `${o.type}:${o.outcome}`)).toEqual(["call:Talked", "call:Left voicemail", "call:No answer", "text:Texted"]);
  });
});
