import { describe, expect, it } from "vitest";
import { DRAFT_TASKS, DRAFT_TONES, type DraftEnvelope } from "./draft-types";
import { draft } from "./drafter";
import { SCENARIOS, contact, deal, envelope } from "./eval/scenarios";
import { fallbackText } from "./fallback";
import { buildPrompt } from "./prompt";

// The offline drafter's exact output, kept in eval/golden/: each writer's drafts of its evaluation scenarios in full
// (the scenario's own tone, variant 0), and a digest of every tone × variants 0, 1 and 2 of each scenario, so a change
// to any draft fails here and says which scenario. The prompt and the canned fallback, which share the drafter's
// helpers (names, money, days, deals), are held the same way. After an intended change of wording, rewrite the
// files with `npm run test:unit -- app/modules/ai/drafter.golden.test.ts -u` and review the diff like code.

const VARIANTS = [0, 1, 2];

async function digest(texts: string[]): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(texts.join("\n\u0000\n")));
  return [...new Uint8Array(bytes)]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, 16);
}

/**
 * Days at the edges, which the evaluation set (all on one Monday in November) does not reach: a week that runs into
 * the next year, and one across a leap day, with overdue tasks, close dates either side and a contact last seen the
 * year before.
 */
const EDGE_CASES = [
  {
    today: "2026-12-29",
    before: "2026-12-20",
    inWeek: ["2026-12-31", "2027-01-02", "2027-01-04"],
    lastSeen: "2025-12-30",
    close: ["2027-01-03", "2026-12-01"],
  },
  {
    today: "2028-02-26",
    before: "2028-02-10",
    inWeek: ["2028-02-28", "2028-02-29", "2028-03-01", "2028-03-03"],
    lastSeen: "2028-02-19",
    close: ["2028-02-29", "2028-01-31"],
  },
].flatMap(({ today, before, inWeek, lastSeen, close }) => {
  const who = contact({ lastActivityDay: lastSeen, lastActivitySummary: "Call — talked about timing" });
  const tasks = [before, ...inWeek].map((dueDate, i) => ({ title: `Task ${i + 1}`, dueDate, contactName: i % 2 ? "Zoë O'Brien" : null }));
  const deals = [
    deal({ title: "Year-end close", stage: "under_contract", stageName: "Under Contract", expectedCloseDate: close[0], lastActivityDay: before }),
    deal({ title: "Late close", stage: "offer", stageName: "Offer", expectedCloseDate: close[1], lastActivityDay: lastSeen, daysInStage: 20 }),
  ];
  return (["week_plan", "deal_review", "follow_up", "advice"] as const).map((task) => ({
    id: `edge-${task}-${today}`,
    envelope: envelope(task, { today, tasks, deals, contact: who, userInput: task === "advice" ? "How should I plan my week?" : "" }),
  }));
});

const everyToneAndVariant = (env: DraftEnvelope) => DRAFT_TONES.flatMap((tone) => VARIANTS.map((variant) => draft({ ...env, tone, variant })));

describe.each(DRAFT_TASKS)("the %s writer", (task) => {
  const scenarios = [...SCENARIOS, ...EDGE_CASES].filter((s) => s.envelope.task === task);

  it("has scenarios to hold it to", () => {
    expect(scenarios.length).toBeGreaterThan(0);
  });

  it("writes exactly the golden drafts", async () => {
    const text = scenarios.map((s) => `=== ${s.id} (${s.envelope.tone}, variant ${s.envelope.variant})\n${draft(s.envelope)}\n`).join("\n");
    await expect(text).toMatchFileSnapshot(`./eval/golden/${task}.txt`);
  });

  it("writes exactly the golden drafts in every tone and variant", async () => {
    const lines = await Promise.all(scenarios.map(async (s) => `${s.id} ${await digest(everyToneAndVariant(s.envelope))}`));
    await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot(`./eval/golden/${task}.digests.txt`);
  });
});

describe("the prompt and the fallback, from the drafter's helpers", () => {
  it("build exactly the golden prompts and fallback texts", async () => {
    const lines = await Promise.all(
      SCENARIOS.map(async (s) => {
        const prompts = DRAFT_TONES.map((tone) => buildPrompt({ ...s.envelope, tone })).flatMap(({ system, user }) => [system, user]);
        return `${s.id} prompt ${await digest(prompts)} fallback ${await digest([fallbackText(s.envelope)])}`;
      }),
    );
    await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot("./eval/golden/prompts.digests.txt");
  });
});
