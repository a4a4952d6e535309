import type { ContactSource, IntakeFormat } from "~/db/enums";

// Reading a lead out of a notification e-mail's text: the fields portals and website forms label ("Name: …",
// "Phone   555…", "Comments:" and the lines after), and the things that look the same in any layout (an e-mail address,
// a phone number, a price, an MLS number, a listing's link). Each portal's module (zillow.ts, …) says how to know its
// e-mails and what its labels are; index.ts picks the portal and fills in what the labels missed.

/** The e-mail as the parsers see it: the sender, the Reply-To (portals put the lead there), the subject and the text. */
export interface MailInput {
  from: { name: string; address: string };
  replyTo: { name: string; address: string } | null;
  subject: string;
  /** The plain text part, or the HTML part converted to text. */
  text: string;
}

export interface PropertyGuess {
  address: string | null;
  mls: string | null;
  priceCents: number | null;
  url: string | null;
}

/** What an e-mail says about the lead; null where it did not say. */
export interface LeadGuess {
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  property: PropertyGuess | null;
}

/** What a reading made of an e-mail: the format it recognised, the source a lead from it gets, and the lead. */
export interface Reading {
  format: IntakeFormat;
  source: ContactSource;
  lead: LeadGuess;
  /** A known format with a name and a way to reach them: it becomes a lead at once; otherwise it waits for review. */
  complete: boolean;
}

/** The labels a field goes by, in any portal's e-mail (a portal adds its own). */
export interface FieldLabels {
  name: readonly string[];
  firstName: readonly string[];
  lastName: readonly string[];
  email: readonly string[];
  phone: readonly string[];
  message: readonly string[];
  address: readonly string[];
  mls: readonly string[];
  price: readonly string[];
}

export const COMMON_LABELS: FieldLabels = {
  name: ["Full Name", "Client Name", "Buyer Name", "Contact Name", "Lead Name", "Consumer Name", "Your Name", "Name"],
  firstName: ["First Name"],
  lastName: ["Last Name"],
  email: ["Email Address", "E-mail Address", "Contact Email", "Your Email", "Email", "E-mail"],
  phone: ["Phone Number", "Contact Phone", "Your Phone", "Mobile Phone", "Phone", "Mobile", "Cell", "Telephone"],
  message: ["Message", "Comments", "Comment", "Questions", "Question", "Inquiry", "Enquiry", "Lead Message", "Additional Information", "Notes"],
  address: ["Property Address", "Listing Address", "Property of Interest", "Interested In", "Property", "Address", "Listing"],
  mls: ["MLS Number", "MLS ID", "MLS #", "MLS#", "MLS No", "MLS", "Listing ID"],
  price: ["List Price", "Listing Price", "Asking Price", "Price"],
};

/** Joins two sets of labels, the portal's first (a longer label before a shorter one it starts with is the caller's care). */
export function withLabels(extra: Partial<FieldLabels>): FieldLabels {
  const merged = { ...COMMON_LABELS };
  for (const key of Object.keys(extra) as (keyof FieldLabels)[]) merged[key] = [...(extra[key] ?? []), ...COMMON_LABELS[key]];
  return merged;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const MAX_FIELD = 2_000;

/**
 * The value after the first line that starts with one of `labels`: on the same line after a colon, a tab or a run of
 * spaces ("Name: Jane", "Name     Jane", a table cell converted to text), or, for a label alone on its line, on the
 * lines after it (up to a blank line for a multi-line field, else the next line).
 */
export function fieldValue(text: string, labels: readonly string[], multiline = false): string | null {
  const lines = text.split(/\r?\n/);
  for (const label of labels) {
    const inline = new RegExp(`^[\\s>*]*${escape(label)}\\s*(?::|\\t|\\s{2,})\\s*(\\S.*)$`, "i");
    const alone = new RegExp(`^[\\s>*]*${escape(label)}\\s*:?\\s*$`, "i");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const match = inline.exec(line);
      if (match) {
        if (!multiline) return clean(match[1]!);
        const rest = [match[1]!, ...following(lines, i + 1, false)];
        return clean(rest.join("\n"));
      }
      if (alone.test(line)) {
        const after = following(lines, i + 1, true);
        if (after.length === 0) continue;
        return clean(multiline ? after.join("\n") : after[0]!);
      }
    }
  }
  return null;
}

/** A line that starts another labelled field ("Property: …", "List Price   $…"): where a multi-line value ends. */
const NEXT_LABEL = /^[\s>*]*[A-Z][\w#/.'-]*(?: [\w#/.'-]+){0,3}(?::\s|\t|\s{2,}\S|:$)/;

/**
 * The lines after `start` up to the first blank one, the next label or a bare link. `skipBlank`: blank lines right
 * after a label alone on its line are skipped first (the value is below it).
 */
function following(lines: string[], start: number, skipBlank: boolean): string[] {
  let i = start;
  if (skipBlank) while (i < lines.length && lines[i]!.trim() === "") i++;
  const taken: string[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || /^\s*<?https?:\/\/\S+>?\s*$/.test(line) || (taken.length > 0 || !skipBlank ? NEXT_LABEL.test(line) : false)) break;
    taken.push(line.replace(/^[\s>]+/, ""));
  }
  return taken;
}

function clean(value: string): string | null {
  const text = value
    .replace(/<(mailto:|tel:)?[^>\s]*>/g, "")
    .replace(/[ \t]+/g, " ")
    .trim()
    .slice(0, MAX_FIELD);
  return text === "" ? null : text;
}

const EMAIL = /[A-Z0-9._%+'-]+@[A-Z0-9.-]+\.[A-Z]{2,}/i;
const PHONE = /(?:\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b/;
const PRICE = /\$\s?(\d{1,3}(?:,\d{3})+|\d{4,})(?:\.(\d{2}))?/;
const MLS = /\bMLS\s*(?:#|No\.?|Number|ID)?\s*:?\s*#?\s*([A-Z0-9][A-Z0-9-]{3,19})\b/i;
const LINK = /https?:\/\/[^\s<>"')\]]+/gi;
const STREET =
  /\b\d{1,6}\s+(?:[NSEW]\.?\s+)?[A-Z0-9][\w.'-]*(?:\s+[A-Z0-9][\w.'-]*){0,4}\s+(?:St|Street|Ave|Avenue|Rd|Road|Dr|Drive|Ln|Lane|Blvd|Boulevard|Ct|Court|Way|Pl|Place|Ter|Terrace|Cir|Circle|Pkwy|Parkway|Hwy|Highway|Trl|Trail|Loop|Sq|Square)\b\.?(?:,?\s*(?:Apt|Unit|Ste|Suite|#)\s*[\w-]+)?(?:,\s*[A-Za-z .'-]+,\s*[A-Z]{2}(?:\s+\d{5}(?:-\d{4})?)?)?/;

/** The first e-mail address in `text` that is not one of `not` (the portal's, the intake address). */
export function findEmail(text: string | null, not: (address: string) => boolean = () => false): string | null {
  if (!text) return null;
  for (const match of text.matchAll(new RegExp(EMAIL.source, "gi"))) {
    const address = match[0].toLowerCase();
    if (!not(address)) return address;
  }
  return null;
}

export const findPhone = (text: string | null) => (text ? (PHONE.exec(text)?.[0].trim() ?? null) : null);
export const findMls = (text: string | null) => (text ? (MLS.exec(text)?.[1] ?? null) : null);
export const findStreetAddress = (text: string | null) => (text ? (STREET.exec(text)?.[0].trim() ?? null) : null);

/** A price in whole cents: "$450,000", "$1,250,000.00", "$ 450000". */
export function findPriceCents(text: string | null): number | null {
  if (!text) return null;
  const match = PRICE.exec(text);
  if (!match) return null;
  const dollars = Number(match[1]!.replace(/,/g, ""));
  const cents = match[2] ? Number(match[2]) : 0;
  return Number.isSafeInteger(dollars) && dollars > 0 ? dollars * 100 + cents : null;
}

/** The first link in `text` on one of `hosts` (a listing's page): kept as text, never fetched. */
export function findLink(text: string, hosts: readonly string[]): string | null {
  for (const match of text.matchAll(LINK)) {
    try {
      const url = new URL(match[0]);
      if (hosts.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`))) return url.toString().slice(0, 500);
    } catch {
      // Not a URL after all.
    }
  }
  return null;
}

/** The domain of an address ("leads@mail.zillow.com" → "mail.zillow.com"), lower-case. */
const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/** Whether `address` is at `domain` or one of its subdomains. */
export const isAt = (address: string, domain: string) => {
  const host = domainOf(address);
  return host === domain || host.endsWith(`.${domain}`);
};

const FORWARD_MARK =
  /(?:-{3,}\s*Forwarded message\s*-{3,}|Begin forwarded message:|-{3,}\s*Original Message\s*-{3,}|^\s*_{10,}\s*$|^\s*From:\s.*\n\s*Sent:\s)/im;
const FORWARDED_FROM = /^[\s>*]*From:\s*(.+)$/im;

/**
 * The original sender of a forwarded e-mail (Gmail's "Forwarded message", Apple Mail's "Begin forwarded message",
 * Outlook's "From: … Sent: …" block), as written in the forward: null when the e-mail is not a forward.
 */
export function forwardedFrom(text: string): { name: string; address: string } | null {
  const mark = FORWARD_MARK.exec(text);
  if (!mark) return null;
  const from = FORWARDED_FROM.exec(text.slice(mark.index));
  if (!from) return null;
  const line = from[1]!.replace(/\*/g, "").trim();
  const address = findEmail(line);
  if (!address) return null;
  const name = line
    .replace(/[<[(]?(mailto:)?[^\s<[(]+@[^\s>\])]+[>\])]?/i, "")
    .replace(/["']/g, "")
    .trim();
  return { name, address };
}

/** The text after a forward's header block (its From, Date, Subject and To lines), or all of it when not a forward. */
export function forwardedBody(text: string): string {
  const mark = FORWARD_MARK.exec(text);
  if (!mark) return text;
  const rest = text.slice(mark.index + mark[0].length).split(/\r?\n/);
  let i = 0;
  while (i < rest.length && (rest[i]!.trim() === "" || /^[\s>*]*(From|Sent|Date|Subject|To|Cc|Reply-To):/i.test(rest[i]!))) i++;
  return rest.slice(i).join("\n");
}

/** A name as a contact's: spaces collapsed, at most 200 characters, null when it is an address or empty. */
export function personName(value: string | null | undefined): string | null {
  const name = value?.replace(/["<>]/g, "").replace(/\s+/g, " ").trim() ?? "";
  if (name === "" || EMAIL.test(name) || /^(no-?reply|leads?|info|support|notifications?)$/i.test(name)) return null;
  return name.slice(0, 200);
}
