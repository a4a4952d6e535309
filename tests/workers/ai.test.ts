import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { agentProfiles, contacts, crmActivities, deals, type NewContact, type NewDeal } from "~/db/schema";
import { GenerateRequestSchema } from "~/modules/ai/ai.schema";
import type { DraftEnvelope } from "~/modules/ai/draft-types";
import { generate, type AiBinding, type GenerationEvent } from "~/modules/ai/engines.server";
import { EnvelopeError, loadEnvelope } from "~/modules/ai/envelope.server";
import { fallbackText } from "~/modules/ai/fallback";
import { aiDraftsToday, AI_RATE, countedOnSuccess, refundAiDraft, spendAiDraft } from "~/modules/ai/quota.server";
import { TestBrowser, signInAs } from "../factories/browser";
import { createAgent } from "../factories/users";
import { atFreshWindow } from "../factories/dates";

// The generation service. Engine order, timeouts and fallback against a fake Workers AI binding and
// a fake OpenAI-style endpoint (the outside world, faked at its boundary); the envelope built from the
// user's own rows only; the HTTP endpoint with its limits.

const db = createDb(env.DB);
const DAY = 86_400_000;
const ORIGIN = "http://localhost";

let seq = 0;
const id = (prefix: string) => `${prefix}-${++seq}-${crypto.randomUUID().slice(0, 8)}`;

const agent = () => createAgent(env.DB);
async function addContact(userId: string, fields: Partial<NewContact> = {}) {
  const row: NewContact = {
    id: id("c"),
    userId,
    name: "Jane Doe",
    email: "jane@example.com",
    status: "hot",
    budgetMax: 450_000,
    location: "Austin",
    ...fields,
  };
  await db.insert(contacts).values(row);
  return row;
}
async function addDeal(userId: string, fields: Partial<NewDeal> = {}) {
  const now = new Date();
  const row: NewDeal = {
    id: id("d"),
    userId,
    title: "12 Oak St",
    stage: "offer",
    position: `a${seq}`,
    dealValueCents: 50_000_000,
    commissionRate: 3,
    probability: 60,
    createdAt: now,
    stageChangedAt: now,
    ...fields,
  };
  await db.insert(deals).values(row);
  return row;
}

const request = (fields: Record<string, unknown>) => GenerateRequestSchema.parse(fields);

async function collect(events: AsyncGenerator<GenerationEvent>) {
  const all: GenerationEvent[] = [];
  for await (const event of events) all.push(event);
  const engine = all.find((e) => e.type === "engine") as Extract<GenerationEvent, { type: "engine" }> | undefined;
  const final = all.find((e) => e.type === "final") as Extract<GenerationEvent, { type: "final" }> | undefined;
  const error = all.find((e) => e.type === "error") as Extract<GenerationEvent, { type: "error" }> | undefined;
  return {
    all,
    engine: engine?.engine,
    note: engine?.note ?? null,
    text: final?.text ?? "",
    error: error?.message ?? null,
    done: all.at(-1)?.type === "done",
  };
}

/** A Workers AI text stream as the binding returns it: server-sent events of {"response": "..."}. */
function sse(pieces: string[], { stallAfter }: { stallAfter?: number } = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (stallAfter !== undefined && i === stallAfter) return new Promise(() => {});
      if (i < pieces.length) controller.enqueue(encoder.encode(`data: ${JSON.stringify({ response: pieces[i++] })}\n\n`));
      else {
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      }
    },
  });
}
function fakeAi(answer: () => Promise<unknown>) {
  const calls: { model: string; inputs: Record<string, unknown> }[] = [];
  const ai: AiBinding = {
    run: (model, inputs) => {
      calls.push({ model, inputs });
      return answer();
    },
  };
  return { ai, calls };
}

async function envelopeFor(fields: Record<string, unknown> = {}): Promise<DraftEnvelope> {
  const { userId } = await agent();
  const contact = await addContact(userId, { name: "Priya Patel", email: "priya@example.com" });
  return loadEnvelope(db, userId, request({ task: "follow_up", contactId: contact.id, ...fields }));
}

describe("engine order", () => {
  it("uses the Workers AI binding first, with the configured model and the envelope's facts in the prompt", async () => {
    const envelope = await envelopeFor();
    const { ai, calls } = fakeAi(async () => sse(["Subject: Checking in\n\n", "Hi Priya, ", "any news?"]));
    const result = await collect(generate(envelope, { ai, model: "@cf/test/model" }));
    expect(result.engine).toBe("workers-ai");
    expect(result.text).toBe("Subject: Checking in\n\nHi Priya, any news?");
    expect(calls[0]!.model).toBe("@cf/test/model");
    expect(JSON.stringify(calls[0]!.inputs.messages)).toContain("Priya Patel");
    expect(result.all[0]).toEqual({ type: "context", contact: { id: envelope.contact!.id, name: "Priya Patel", email: "priya@example.com" } });
  });

  it("goes on to the OpenAI-style endpoint when the binding fails", async () => {
    const envelope = await envelopeFor();
    const { ai } = fakeAi(async () => {
      throw new Error("3040: capacity exceeded");
    });
    const seen: Request[] = [];
    const fetcher = (async (input: RequestInfo, init?: RequestInit) => {
      seen.push(new Request(input, init));
      const body = `data: ${JSON.stringify({ choices: [{ delta: { content: "Hello from the gateway" } }] })}\n\ndata: [DONE]\n\n`;
      return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
    }) as typeof fetch;
    const result = await collect(generate(envelope, { ai, gatewayUrl: "https://gateway.test/v1/", gatewayKey: "sk-test", fetcher }));
    expect(result.engine).toBe("gateway");
    expect(result.text).toBe("Hello from the gateway");
    expect(result.note).toBe("workers-ai failed.");
    expect(seen[0]!.url).toBe("https://gateway.test/v1/chat/completions");
    expect(seen[0]!.headers.get("Authorization")).toBe("Bearer sk-test");
  });

  it("falls back to the offline drafter when the model stays silent past the first-token timeout", async () => {
    const envelope = await envelopeFor();
    const { ai } = fakeAi(() => new Promise(() => {}));
    const result = await collect(generate(envelope, { ai, firstTokenMs: 50 }));
    expect(result.engine).toBe("offline");
    expect(result.note).toBe("workers-ai did not answer in time.");
    expect(result.text).toContain("Priya");
    expect(result.done).toBe(true);
  });

  it("treats a stream of blanks as no answer and moves on", async () => {
    const envelope = await envelopeFor();
    const { ai } = fakeAi(async () => sse(["", "  ", "\n"]));
    const result = await collect(generate(envelope, { ai }));
    expect(result.engine).toBe("offline");
    expect(result.note).toBe("workers-ai returned no text.");
  });

  it("keeps what a model wrote when it stalls mid-answer, and says so", async () => {
    const envelope = await envelopeFor();
    const { ai } = fakeAi(async () => sse(["Hi Priya,", " the seller"], { stallAfter: 1 }));
    const result = await collect(generate(envelope, { ai, firstTokenMs: 1_000, totalMs: 100 }));
    expect(result.engine).toBe("workers-ai");
    expect(result.text).toBe("Hi Priya,");
    expect(result.error).toMatch(/took too long/);
  });

  it("writes offline when no model is configured (the local default)", async () => {
    const result = await collect(generate(await envelopeFor(), {}));
    expect(result.engine).toBe("offline");
    expect(result.note).toBeNull();
    expect(result.text).toMatch(/^Subject: .+\n\n/);
  });

  it("shows the spec's canned fallback only when even the offline drafter fails or writes nothing", async () => {
    const envelope = await envelopeFor();
    const failing = await collect(
      generate(envelope, {
        offline: () => {
          throw new Error("drafter bug");
        },
      }),
    );
    expect(failing.engine).toBe("fallback");
    expect(failing.text).toBe(fallbackText(envelope));
    expect(failing.text).toMatch(/financ/i);
    const empty = await collect(generate(envelope, { offline: () => "  " }));
    expect(empty.engine).toBe("fallback");
  });

  it("cuts a model's listing to the MLS limit at a word boundary", async () => {
    const { userId } = await agent();
    const envelope = await loadEnvelope(db, userId, request({ task: "listing", userInput: "renovated kitchen", mlsLimit: 250 }));
    const long = "Sunny three-bedroom home with a renovated kitchen and a deep garden. ".repeat(12);
    const { ai } = fakeAi(async () => sse([long]));
    const result = await collect(generate(envelope, { ai }));
    expect(result.text.length).toBeLessThanOrEqual(250);
    expect(long.startsWith(result.text.replace(/[.,;:]?$/, ""))).toBe(true);
  });
});

describe("the envelope comes from the user's own data", () => {
  it("fills the contact, their open deals, the last activity and the agent profile", async () => {
    const { userId } = await agent();
    await db.insert(agentProfiles).values({ userId, agentName: "Sam Rivera", brokerage: "Lakeside Realty", market: "Austin" });
    const contact = await addContact(userId, { name: "Dana Reyes", bedrooms: 3 });
    await addDeal(userId, { contactId: contact.id, title: "Dana buys on Elm", stage: "showing" });
    await addDeal(userId, { contactId: contact.id, title: "Old lost deal", stage: "closed_lost" });
    await db
      .insert(crmActivities)
      .values({ id: id("a"), userId, contactId: contact.id, type: "showing", occurredAt: new Date(Date.now() - 2 * DAY), outcome: "Loved the yard" });
    const envelope = await loadEnvelope(db, userId, request({ task: "follow_up", contactId: contact.id }));
    expect(envelope.contact).toMatchObject({ name: "Dana Reyes", bedrooms: 3, budgetMax: 450_000, lastActivitySummary: "Showing — Loved the yard" });
    expect(envelope.deals.map((d) => [d.title, d.stageName])).toEqual([["Dana buys on Elm", "Showing"]]);
    expect(envelope.agent).toEqual({ name: "Sam Rivera", brokerage: "Lakeside Realty", market: "Austin" });
  });

  it("refuses another agent's contact or deal ids, and names no one of theirs", async () => {
    const me = await agent();
    const other = await agent();
    const theirs = await addContact(other.userId, { name: "Not Yours" });
    const theirDeal = await addDeal(other.userId);
    await expect(loadEnvelope(db, me.userId, request({ task: "follow_up", contactId: theirs.id }))).rejects.toThrow(EnvelopeError);
    await expect(loadEnvelope(db, me.userId, request({ task: "deal_review", dealIds: [theirDeal.id] }))).rejects.toThrow(EnvelopeError);
    // Without ids, "a hot lead" is one of mine: I have none, so it says so rather than borrowing theirs.
    await expect(loadEnvelope(db, me.userId, request({ task: "follow_up" }))).rejects.toThrow(/no hot leads/);
  });

  it("picks the hot lead quiet the longest for a follow-up without a contact", async () => {
    const { userId } = await agent();
    await addContact(userId, { name: "Recent Hot", lastActivity: new Date(Date.now() - DAY) });
    await addContact(userId, { name: "Quiet Hot", lastActivity: new Date(Date.now() - 20 * DAY) });
    await addContact(userId, { name: "Cold One", status: "cold", lastActivity: new Date(Date.now() - 90 * DAY) });
    expect((await loadEnvelope(db, userId, request({ task: "follow_up" }))).contact?.name).toBe("Quiet Hot");
  });

  it("reviews open deals riskiest first, healthy ones after, closed ones not at all", async () => {
    const { userId } = await agent();
    await addDeal(userId, { title: "Healthy", expectedCloseDate: null });
    await db
      .insert(crmActivities)
      .values({ id: id("a"), userId, dealId: (await addDeal(userId, { title: "Also healthy" })).id, type: "call", occurredAt: new Date() });
    await addDeal(userId, { title: "Slipping", expectedCloseDate: "2020-01-01" });
    await addDeal(userId, { title: "Won", stage: "closed_won", expectedCloseDate: "2020-01-01" });
    const old = new Date(Date.now() - 40 * DAY);
    await addDeal(userId, { title: "Stale", stageChangedAt: old, createdAt: old });
    const envelope = await loadEnvelope(db, userId, request({ task: "deal_review" }));
    const titles = envelope.deals.map((d) => d.title);
    expect(titles.slice(0, 2)).toEqual(["Slipping", "Stale"]);
    expect(titles.slice(2).sort()).toEqual(["Also healthy", "Healthy"]);
  });
});

const post = (browser: TestBrowser, body: unknown) =>
  browser.fetch("/api/ai/generate", { method: "POST", headers: { Origin: ORIGIN, "Content-Type": "application/json" }, body: JSON.stringify(body) });
const events = (text: string) =>
  text
    .trim()
    .split("\n\n")
    .map((block) => {
      const [event, data] = block.split("\n");
      return { event: event!.slice("event: ".length), data: JSON.parse(data!.slice("data: ".length)) as Record<string, unknown> };
    });

describe("POST /api/ai/generate", () => {
  it("streams a follow-up for the user's contact, written offline, and counts it", async () => {
    const user = await agent();
    const contact = await addContact(user.userId, { name: "Maria Lopez" });
    const browser = await signInAs(user);
    const response = await post(browser, { task: "follow_up", contactId: contact.id, tone: "professional" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/event-stream");
    const stream = events(await response.text());
    expect(stream.map((e) => e.event)).toEqual(["context", "engine", "text", "final", "done"]);
    expect(stream[1]!.data).toEqual({ engine: "offline", note: null });
    expect(String(stream[3]!.data.text)).toContain("Maria");
    expect(await aiDraftsToday({ db }, user.id)).toBe(1);
  });

  it("answers bad input and other agents' ids with a message, spending nothing", async () => {
    const user = await agent();
    const other = await agent();
    const theirs = await addContact(other.userId);
    const browser = await signInAs(user);
    const wrongTask = await post(browser, { task: "poem" });
    expect(wrongTask.status).toBe(400);
    expect(await wrongTask.json()).toEqual({ ok: false, error: "Choose what the coach should write." });
    const blank = await post(browser, { task: "advice", userInput: "   \n " });
    expect(await blank.json()).toEqual({ ok: false, error: "Type a question for the coach first." });
    const foreign = await post(browser, { task: "follow_up", contactId: theirs.id });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ ok: false, error: "That contact was not found in your account." });
    expect(await aiDraftsToday({ db }, user.id)).toBe(0);
  });

  it("writes a listing from the facts typed in the quick action, over the seller's record, and tells the model them", async () => {
    const user = await agent();
    const seller = await addContact(user.userId, { name: "Grace Whitfield", tags: ["seller"], bedrooms: 3, bathrooms: 2, location: "Laurelhurst" });
    const browser = await signInAs(user);
    const facts = { bedrooms: 4, bathrooms: 2.5, squareFeet: 2_400, price: 875_000 };
    const response = await post(browser, {
      task: "listing",
      contactId: seller.id,
      userInput: "renovated kitchen, two-car garage",
      mlsLimit: 500,
      listing: facts,
    });
    expect(response.status).toBe(200);
    const text = String(events(await response.text()).find((e) => e.event === "final")!.data.text);
    expect(text).toContain("4-bedroom, 2.5-bathroom, 2,400 sq ft home in Laurelhurst");
    expect(text).toContain("$875,000");
    expect(text).toMatch(/renovated kitchen/i);
    expect(text).not.toContain("3-bedroom");
    expect(text.length).toBeLessThanOrEqual(500);
    // The envelope carries them for listings only, and the model's prompt states each one.
    const envelope = await loadEnvelope(db, user.userId, request({ task: "listing", contactId: seller.id, listing: facts }));
    expect(envelope.listing).toEqual(facts);
    const { ai, calls } = fakeAi(async () => sse(["A 4-bedroom home at $875,000 with a renovated kitchen and a two-car garage."]));
    await collect(generate(envelope, { ai }));
    expect(JSON.stringify(calls[0]!.inputs)).toContain(
      "Listing facts\\n- Bedrooms: 4\\n- Bathrooms: 2.5\\n- Size: 2,400 sq ft\\n- List price: $875,000",
    );
    expect((await loadEnvelope(db, user.userId, request({ task: "follow_up", contactId: seller.id, listing: facts }))).listing).toBeNull();
    expect(
      (
        await loadEnvelope(
          db,
          user.userId,
          request({ task: "listing", contactId: seller.id, listing: { bedrooms: null, bathrooms: null, squareFeet: null, price: null } }),
        )
      ).listing,
    ).toBeNull();
  });

  it("refuses listing facts that are not a property's, with a message, spending nothing", async () => {
    const user = await agent();
    const browser = await signInAs(user);
    const cases: [unknown, string][] = [
      [{ bedrooms: -1 }, "Bedrooms must be at least 0."],
      [{ bedrooms: 2.5 }, "Bedrooms must be a whole number."],
      [{ bathrooms: 2.3 }, "Bathrooms go in whole or half baths, like 2 or 2.5."],
      [{ squareFeet: 0 }, "Square feet must be at least 1."],
      [{ price: 5_000_000_000 }, "The list price must be at most 1,000,000,000."],
      [{ price: "875000" }, "The list price must be a number."],
      ["four bedrooms", "Send the listing's facts as an object."],
    ];
    for (const [listing, message] of cases) {
      const response = await post(browser, { task: "listing", userInput: "garden", listing });
      expect(response.status, JSON.stringify(listing)).toBe(400);
      expect(await response.json()).toEqual({ ok: false, error: message });
    }
    expect(await aiDraftsToday({ db }, user.id)).toBe(0);
  });

  it("needs a signed-in subscriber", async () => {
    const response = await post(new TestBrowser(), { task: "week_plan" });
    expect(response.status).toBe(401);
  });

  it("stops a burst with a clear message after the per-minute limit", () =>
    atFreshWindow(60, async () => {
      const user = await agent();
      const browser = await signInAs(user);
      for (let i = 0; i < AI_RATE.limit; i++) expect((await post(browser, { task: "week_plan" })).status).toBe(200);
      const refused = await post(browser, { task: "week_plan" });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(((await refused.json()) as { error: string }).error).toMatch(/^That is 10 drafts in a minute\. Please wait \d+ seconds/);
    }));
});

describe("daily quota", () => {
  it("refuses past the quota until midnight UTC, per user", async () => {
    const me = (await agent()).id;
    const you = (await agent()).id;
    const morning = Date.parse("2026-11-20T09:00:00Z");
    // Spread over minutes so the per-minute limit is not what stops it.
    expect(await spendAiDraft({ db }, env.KV, me, 2, morning)).toEqual({ ok: true, day: "2026-11-20" });
    expect((await spendAiDraft({ db }, env.KV, me, 2, morning + 60_000)).ok).toBe(true);
    const refused = await spendAiDraft({ db }, env.KV, me, 2, morning + 120_000);
    expect(refused).toEqual({
      ok: false,
      message: "You have used all 2 AI drafts for today. The quota resets at midnight UTC, in about 15 hours.",
      retryAfterSeconds: 14 * 3600 + 58 * 60,
    });
    expect((await spendAiDraft({ db }, env.KV, you, 2, morning + 120_000)).ok).toBe(true);
    expect(await spendAiDraft({ db }, env.KV, me, 2, Date.parse("2026-11-21T00:00:30Z"))).toEqual({ ok: true, day: "2026-11-21" });
  });

  it("takes the last draft of the day once when two start together", async () => {
    const me = (await agent()).id;
    const at = Date.parse("2026-11-20T10:00:00Z");
    const both = await Promise.all([spendAiDraft({ db }, env.KV, me, 1, at), spendAiDraft({ db }, env.KV, me, 1, at)]);
    expect(both.map((s) => s.ok).sort()).toEqual([false, true]);
    expect(await aiDraftsToday({ db }, me, at)).toBe(1);
  });

  it("gives a failed draft back, and counts only a finished one", async () => {
    const envelope = await envelopeFor();
    const me = (await agent()).id;
    const at = Date.now();
    const draft = async (events: AsyncGenerator<GenerationEvent>) => {
      const spent = await spendAiDraft({ db }, env.KV, me, 100, at);
      if (!spent.ok) throw new Error(spent.message);
      let refund: Promise<void> | null = null;
      const result = await collect(countedOnSuccess(events, () => (refund = refundAiDraft({ db }, me, spent.day))));
      await refund;
      return result;
    };
    // A model that stalls mid-answer is stopped at the deadline: what it wrote is shown, the draft is not counted.
    const stalled = fakeAi(async () => sse(["Hi Priya,", " the seller"], { stallAfter: 1 }));
    expect((await draft(generate(envelope, { ai: stalled.ai, firstTokenMs: 1_000, totalMs: 100 }))).error).toMatch(/took too long/);
    expect(await aiDraftsToday({ db }, me, at)).toBe(0);
    // Every engine failing leaves the canned fallback: not counted either.
    const broken = fakeAi(async () => {
      throw new Error("down");
    });
    const fallback = await draft(
      generate(envelope, {
        ai: broken.ai,
        offline: () => {
          throw new Error("drafter broke");
        },
      }),
    );
    expect(fallback.engine).toBe("fallback");
    expect(await aiDraftsToday({ db }, me, at)).toBe(0);
    // A model that finishes, and the offline drafter after a model failed: each counted.
    await draft(generate(envelope, { ai: fakeAi(async () => sse(["Hi Priya, any news?"])).ai }));
    expect((await draft(generate(envelope, { ai: broken.ai }))).engine).toBe("offline");
    expect(await aiDraftsToday({ db }, me, at)).toBe(2);
    // A reader that goes away before the end (the page closed, the connection lost) gives it back.
    const spent = await spendAiDraft({ db }, env.KV, me, 100, at);
    let refund: Promise<void> | null = null;
    const events = countedOnSuccess(generate(envelope, {}), () => (refund = spent.ok ? refundAiDraft({ db }, me, spent.day) : null));
    await events.next();
    await events.return(undefined);
    await refund;
    expect(await aiDraftsToday({ db }, me, at)).toBe(2);
  });

  it("gives the draft back when the model breaks off mid-answer, through the endpoint", async () => {
    const user = await agent();
    // Workers AI starts writing, then its stream breaks: the page keeps what came, the day keeps its draft.
    const breaking = fakeAi(async () => {
      let sent = false;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return controller.error(new Error("connection reset"));
          sent = true;
          controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify({ response: "Monday: call" })}\n\n`));
        },
      });
    });
    const browser = (await signInAs(user)).using({ ...(env as Env), AI: breaking.ai as unknown as Env["AI"] });
    const response = await post(browser, { task: "week_plan" });
    expect(response.status).toBe(200);
    const stream = events(await response.text());
    expect(stream.find((e) => e.event === "error")?.data.message).toBe("The model stopped early; what it wrote so far is below.");
    await vi.waitFor(async () => expect(await aiDraftsToday({ db }, user.id)).toBe(0), { timeout: 5_000 });
    // A finished draft from the same endpoint counts.
    expect((await post(await signInAs(user), { task: "week_plan" })).status).toBe(200);
    expect(await aiDraftsToday({ db }, user.id)).toBe(1);
  });
});
