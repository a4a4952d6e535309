// Merge fields (ADR 0070): `{first name}` and the like in a template, checked when it is saved and filled for one
// contact when it is used. One registry for every template Porchlight fills (the instant first reply, e-mail and text
// templates, action plans' e-mails); each use names the fields it offers. Browser-safe: the editors' previews fill here.

/** Every merge field, as written between braces, and what it stands for. */
export const MERGE_FIELD_HELP = {
  "first name": "The contact's first name (“there” when there is none)",
  property: "The home they asked about (“the home you asked about” when none was named)",
  "property address": "The address of the contact's open deal, else the home they asked about last",
  price: "That home's price or the deal's value, like $450,000",
  "appointment time": "The contact's next showing or appointment on your tasks, like Sat, Mar 14 at 10:30 AM",
  "agent name": "Your name, from Settings → Profile",
  "agent phone": "Your phone number, from Settings → Profile (empty when there is none)",
  signature: "Your e-mail signature, from Settings → Profile (your name, brokerage and phone when none is written)",
} as const;
export type MergeField = keyof typeof MERGE_FIELD_HELP;
/** What a contact fills in: null where they have none (an unfilled field stays in braces, to be written by hand). */
export type MergeValues = Partial<Record<MergeField, string | null>>;

/** The fields e-mail and text templates (and plans) offer. */
export const TEMPLATE_FIELDS = [
  "first name",
  "property address",
  "price",
  "appointment time",
  "agent name",
  "agent phone",
  "signature",
] as const satisfies readonly MergeField[];

const FIELD = /\{([^{}]*)\}/g;
const normal = (field: string) => field.trim().toLowerCase().replace(/\s+/g, " ");
const listOf = (fields: readonly MergeField[]) => fields.map((f) => `{${f}}`).join(", ");

export const MERGE_MESSAGES = {
  unknownField: (field: string, fields: readonly MergeField[]) => `{${field}} is not a merge field. Use ${listOf(fields)}.`,
  unclosed: "A merge field is not closed: write it in braces, like {first name}.",
  unfilled: (fields: readonly string[]) =>
    `Fill in ${fields.map((f) => `{${f}}`).join(", ")} before sending: this contact has nothing on file for ${fields.length === 1 ? "it" : "them"}.`,
} as const;

/** Why `text` cannot be a template with these fields (an unclosed brace, or the first unknown field), or null. */
export function mergeFieldProblem(text: string, fields: readonly MergeField[]): string | null {
  if (/[{}]/.test(text.replace(FIELD, ""))) return MERGE_MESSAGES.unclosed;
  for (const [, field] of text.matchAll(FIELD)) {
    if (!(fields as readonly string[]).includes(normal(field!))) return MERGE_MESSAGES.unknownField(field!, fields);
  }
  return null;
}

/**
 * The text with its fields filled in (case and spaces inside the braces do not matter). A field with no value stays
 * as written, so the agent sees what is missing; `unfilledFields` lists them.
 */
export function fillFields(text: string, values: MergeValues): string {
  return text
    .replace(FIELD, (whole, field: string) => {
      const value = values[normal(field) as MergeField];
      return value == null ? whole : value;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The merge fields still in braces in a filled text (each once, in order). */
export function unfilledFields(text: string): string[] {
  const found = [...text.matchAll(FIELD)].map(([, f]) => normal(f!)).filter((f) => f in MERGE_FIELD_HELP);
  return [...new Set(found)];
}

/** The first name a message greets: the name's first word, or "there" for none (or an e-mail address as name). */
export function firstNameOf(name: string | null | undefined): string {
  const first = (name ?? "").trim().split(/\s+/)[0] ?? "";
  return first && !first.includes("@") ? first : "there";
}

/** The signature a template's {signature} fills: the agent's own, else their name, brokerage and phone. */
export function signatureOf(agent: { name: string; brokerage?: string | null; phone?: string | null; signature?: string | null }): string {
  const own = agent.signature?.trim();
  if (own) return own;
  return [agent.name, agent.brokerage?.trim(), agent.phone?.trim()].filter(Boolean).join("\n");
}
