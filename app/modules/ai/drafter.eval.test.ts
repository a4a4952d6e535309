import { describe, expect, it } from "vitest";
import { DRAFT_TASKS, DRAFT_TONES, type DraftEnvelope } from "./draft-types";
import { draft, firstNameOf, fitToLimit, listingHighlights } from "./drafter";
import { AI_QA_CATEGORIES, GARBAGE, categoryOf, gradeDraft, hasFairHousingInput, maxLengthOf } from "./eval/rubric";
import { SCENARIOS, contact, envelope } from "./eval/scenarios";
import { checkFairHousing } from "./fair-housing";
import { fallbackText } from "./fallback";
import { AGENT_NOTE_END, AGENT_NOTE_START, MAX_PROMPT_INPUT, buildPrompt } from "./prompt";

// The offline drafter's evaluation: every scenario in eval/scenarios.ts through draft() and buildPrompt().

const variantsOf = (env: DraftEnvelope) => [0, 1, 2].map((variant) => draft({ ...env, variant }));
const withoutNote = (user: string) => user.replace(new RegExp(`${AGENT_NOTE_START}[\\s\\S]*?${AGENT_NOTE_END}`), "");

describe("the evaluation set", () => {
  it("fills every card of the AI QA suite", () => {
    const cards = new Set(SCENARIOS.map(categoryOf));
    expect([...AI_QA_CATEGORIES].filter((c) => !cards.has(c))).toEqual([]);
  });

  it("fails a draft that breaks the rubric, saying how", () => {
    const scenario = SCENARIOS.find((s) => s.envelope.task === "follow_up" && (s.expect.includes?.length ?? 0) > 0)!;
    expect(gradeDraft(scenario, "Hi {name}, perfect for families  null")).toEqual(
      expect.arrayContaining([
        `it leaves out "${scenario.expect.includes![0]}"`,
        "it has null",
        "it has a brace or bracket (unfilled placeholder)",
        "it has a double space",
        "it does not start with a Subject line, a blank line and the greeting",
        expect.stringMatching(/^Fair Housing: "perfect for families"/),
      ]),
    );
  });

  it("has at least 100 scenarios with unique ids", () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(SCENARIOS.map((s) => s.id)).size).toBe(SCENARIOS.length);
  });

  it("covers every task and tone, the MLS limits, and the awkward inputs", () => {
    const envs = SCENARIOS.map((s) => s.envelope);
    for (const task of DRAFT_TASKS)
      expect(
        envs.some((e) => e.task === task),
        task,
      ).toBe(true);
    for (const tone of DRAFT_TONES)
      expect(
        envs.some((e) => e.tone === tone),
        tone,
      ).toBe(true);
    for (const limit of [250, 500, 1000, null])
      expect(
        envs.some((e) => e.task === "listing" && e.mlsLimit === limit),
        String(limit),
      ).toBe(true);
    for (const status of ["hot", "warm", "cold"])
      expect(
        envs.some((e) => e.contact?.status === status),
        status,
      ).toBe(true);
    for (const source of ["website", "referral", "cold_call", "social_media", "open_house", "other"])
      expect(
        envs.some((e) => e.contact?.source === source),
        source,
      ).toBe(true);
    for (const type of ["house", "condo", "townhouse", "land", "commercial", "other"])
      expect(
        envs.some((e) => e.contact?.propertyType === type),
        type,
      ).toBe(true);
    for (const stage of ["lead", "qualified", "showing", "offer", "under_contract", "closed_won", "closed_lost"])
      expect(
        envs.some((e) => e.deals.some((d) => d.stage === stage)),
        stage,
      ).toBe(true);
    expect(envs.some((e) => e.userInput === "")).toBe(true);
    expect(envs.some((e) => e.userInput.length > MAX_PROMPT_INPUT)).toBe(true);
    expect(envs.some((e) => /\{name\}/.test(e.userInput))).toBe(true);
    expect(envs.some((e) => /ignore previous instructions/i.test(e.userInput))).toBe(true);
    expect(envs.some((e) => hasFairHousingInput(e))).toBe(true);
    // eslint-disable-next-line no-control-regex -- the range is "any non-ASCII character", from NUL up
    expect(envs.some((e) => e.contact?.name.includes("'") && /[^\x00-\x7f]/.test(e.contact.name))).toBe(true);
    expect(envs.some((e) => e.agent.name === null && e.agent.brokerage === null)).toBe(true);
  });
});

describe.each(SCENARIOS.map((s) => [s.id, s] as const))("%s", (_id, scenario) => {
  const env = scenario.envelope;
  const text = draft(env);

  it("passes the AI QA suite's rubric", () => {
    expect(gradeDraft(scenario, text), text).toEqual([]);
  });

  it("names the right client and facts, and leaves out what it must", () => {
    const lower = text.toLowerCase();
    for (const wanted of scenario.expect.includes ?? []) expect(lower, `missing "${wanted}" in:\n${text}`).toContain(wanted.toLowerCase());
    for (const unwanted of scenario.expect.excludes ?? [])
      expect(lower, `unexpected "${unwanted}" in:\n${text}`).not.toContain(unwanted.toLowerCase());
  });

  it("has no missing-value words, placeholders, double spaces or empty bullets", () => {
    expect(text.trim().length).toBeGreaterThan(20);
    for (const [what, re] of GARBAGE) expect(re.test(text), `${what} in:\n${text}`).toBe(false);
  });

  it("respects the length limit", () => {
    const max = maxLengthOf(scenario);
    expect(text.length).toBeLessThanOrEqual(max);
    if (env.task === "listing" && env.mlsLimit !== null) expect(text.length).toBeLessThanOrEqual(env.mlsLimit);
  });

  it("has no Fair Housing flags", () => {
    // An advice answer may quote the agent's own problem phrase to explain it; everything else must be clean.
    if (env.task === "advice" && hasFairHousingInput(env)) return;
    expect(checkFairHousing(text), text).toEqual([]);
  });

  it("is deterministic, and variants 0, 1 and 2 differ", () => {
    expect(draft(env)).toBe(text);
    const [a, b, c] = variantsOf(env);
    expect(new Set([a, b, c]).size, `${a}\n---\n${b}\n---\n${c}`).toBe(3);
  });

  it("changes with the tone, and concise is the shortest", () => {
    const byTone = Object.fromEntries(DRAFT_TONES.map((tone) => [tone, draft({ ...env, tone })])) as Record<(typeof DRAFT_TONES)[number], string>;
    expect(new Set(Object.values(byTone)).size).toBe(DRAFT_TONES.length);
    // Measured without the MLS limit: under a tight one every tone fills up to it, and concise rightly fits more features.
    const free = (tone: (typeof DRAFT_TONES)[number]) => draft({ ...env, tone, mlsLimit: null });
    expect(free("concise").length, `concise:\n${free("concise")}\nfriendly:\n${free("friendly")}`).toBeLessThan(free("friendly").length);
  });

  if (env.task === "follow_up") {
    it("starts with a Subject line, a blank line, then the greeting", () => {
      expect(text).toMatch(/^Subject: \S.*\n\n(?:Hi|Hey|Hello|Dear|Good day|Greetings|\S+,)/);
    });
  }

  it("builds a prompt with the facts, the rules and the note quoted as data", () => {
    const { system, user } = buildPrompt(env);
    expect(system).toMatch(/licensed real estate agent/);
    expect(system).toMatch(/Fair Housing/);
    expect(system).toMatch(/never invent numbers/i);
    if (env.task === "follow_up") expect(system).toMatch(/Subject:/);
    if (env.task === "listing" && env.mlsLimit) expect(system).toContain(`under ${env.mlsLimit} characters`);
    for (const wanted of scenario.expect.promptIncludes ?? []) expect(system + user, wanted).toContain(wanted);
    if (env.contact?.name.trim()) expect(user).toContain(env.contact.name.trim());
    for (const d of env.deals.slice(0, 30)) expect(user).toContain(d.title);
    const outsideNote = withoutNote(user);
    for (const [what, re] of GARBAGE.slice(0, 3)) expect(re.test(system + outsideNote), what).toBe(false);
    expect(outsideNote).not.toMatch(/\{name\}|\[Client\]/);
    if (env.userInput.trim()) {
      const note = user.slice(user.indexOf(AGENT_NOTE_START) + AGENT_NOTE_START.length, user.indexOf(AGENT_NOTE_END)).trim();
      expect(note.length).toBeGreaterThan(0);
      expect(note.length).toBeLessThanOrEqual(MAX_PROMPT_INPUT);
      expect(user.indexOf(AGENT_NOTE_START)).toBeLessThan(user.indexOf(AGENT_NOTE_END));
    } else {
      expect(user).not.toContain(AGENT_NOTE_START);
    }
  });
});

describe("fitToLimit", () => {
  const text =
    "Welcome to this 3-bedroom home in Maple Grove. Highlights: a renovated kitchen, hardwood floors, and a south-facing garden. Book a showing today.";

  it("returns the text unchanged when there is no limit or it fits", () => {
    expect(fitToLimit(text, null)).toBe(text);
    expect(fitToLimit(text, text.length)).toBe(text);
  });

  it("keeps whole sentences from the start", () => {
    const fitted = fitToLimit(text, 130);
    expect(fitted).toBe(
      "Welcome to this 3-bedroom home in Maple Grove. Highlights: a renovated kitchen, hardwood floors, and a south-facing garden.",
    );
    expect(fitToLimit(text, 60)).toBe("Welcome to this 3-bedroom home in Maple Grove.");
  });

  it("cuts the first sentence at a word boundary, with no dangling punctuation or connecting word", () => {
    const fitted = fitToLimit("Renovated kitchen, hardwood floors and a garden with mature trees and a shed.", 40);
    expect(fitted.length).toBeLessThanOrEqual(40);
    expect(fitted).toBe("Renovated kitchen, hardwood floors.");
    const cut = fitToLimit("Spacious, light-filled rooms with views of the river, the hills and the city", 30);
    expect(cut.length).toBeLessThanOrEqual(30);
    expect(cut).not.toMatch(/[,;:\s-]\.?$|\b(?:and|of|the|with)\.$/);
    expect(cut.endsWith(".")).toBe(true);
  });

  it("never cuts inside a word", () => {
    for (let limit = 10; limit < text.length; limit += 7) {
      const fitted = fitToLimit(text, limit);
      expect(fitted.length).toBeLessThanOrEqual(limit);
      const words = fitted.replace(/[.,:!?]/g, "").split(" ");
      for (const word of words) expect(text.replace(/[.,:!?]/g, "").split(" ")).toContain(word);
    }
  });

  it("handles paragraphs and a limit of zero", () => {
    expect(fitToLimit("First line here.\n\nSecond paragraph is longer.", 20)).toBe("First line here.");
    expect(fitToLimit("Anything", 0)).toBe("");
  });
});

describe("the listing drafter and Fair Housing", () => {
  it("drops or rewords the agent's flagged highlights", () => {
    const items = listingHighlights(
      "Perfect for families, renovated kitchen, safe neighborhood, handicapped accessible entry, man cave, walking distance to synagogue, good schools",
    );
    expect(items).toEqual(["renovated kitchen", "accessible entry", "bonus room"]);
    for (const item of items) expect(checkFairHousing(item)).toEqual([]);
  });

  it("keeps ordinary features whole, including numbers and parentheses", () => {
    expect(listingHighlights("2.5 acres; new roof (2024)\n- family room\n1. updated bath")).toEqual([
      "2.5 acres",
      "new roof (2024)",
      "family room",
      "updated bath",
    ]);
  });

  it("never writes a feature the agent did not give", () => {
    const text = draft(
      envelope("listing", { contact: contact({ propertyType: "condo", bedrooms: 2, bathrooms: 1, location: "Pearl District" }), userInput: "" }),
    );
    expect(text).not.toMatch(/kitchen|garage|pool|view|garden|floors|acre|\$/i);
  });
});

describe("the follow-up drafter's handling of the agent's note", () => {
  const zoe = contact();
  it("works the note in as a sentence to the client, not as an instruction", () => {
    const text = draft(envelope("follow_up", { contact: zoe, userInput: "let her know the seller accepted her inspection requests" }));
    expect(text).toContain("The seller accepted your inspection requests.");
  });

  it("caps a long note", () => {
    const text = draft(envelope("follow_up", { contact: zoe, userInput: "word ".repeat(2000) }));
    expect(text.length).toBeLessThan(1500);
  });
});

describe("firstNameOf: how a contact is greeted", () => {
  it.each([
    ["Zoë O'Brien", "Zoë"],
    ["Madonna", "Madonna"],
    ["  José   Álvarez ", "José"],
    ["Lindqvist, Erik", "Erik"],
    ["Dr. Helen Cho", "Dr. Cho"],
    ["mrs jane doe", "Mrs. doe"],
    ["The Okafor family", "Okafor family"],
    ["Ann & Raj Patel", "Ann and Raj"],
    ["Ann and Raj", "Ann and Raj"],
    ["Mr. and Mrs. Lee", "Mr. and Mrs. Lee"],
    ["The", "The"],
    ["   ", null],
    ["", null],
  ])("%s → %s", (name, expected) => {
    expect(firstNameOf(name)).toBe(expected);
  });
});

describe("fallbackText", () => {
  it("is a financing-verification e-mail for follow-ups, with the first name or 'there'", () => {
    const named = fallbackText(envelope("follow_up", { contact: contact() }));
    expect(named).toMatch(/^Subject: .*financing/i);
    expect(named).toContain("Hi Zoë,");
    expect(named).toContain("Jordan Reyes");
    const anonymous = fallbackText(envelope("follow_up", { contact: null, agent: { name: null, brokerage: null, market: null } }));
    expect(anonymous).toContain("Hi there,");
    expect(anonymous).not.toMatch(/null|undefined/);
  });

  it("is a short next-steps list for every other task", () => {
    for (const task of DRAFT_TASKS.filter((t) => t !== "follow_up")) {
      const text = fallbackText(envelope(task));
      expect(text).toMatch(/^Next steps:\n- /);
      expect(text.split("\n").length).toBeLessThanOrEqual(6);
    }
  });
});
