import Papa from "papaparse";
import type { ContactSource, ContactStatus, PropertyType } from "~/db/enums";
import type { Contact } from "~/db/schema";

// CSV import and export (spec section 3 import columns, decisions.md: CSV only). Parsing and writing go
// through papaparse; this file holds Porchlight's column names and value mappings. Browser-safe.

/** The fields a CSV column can fill. */
export const IMPORT_FIELDS = [
  "first_name",
  "last_name",
  "name",
  "email",
  "phone",
  "company",
  "address",
  "tags",
  "notes",
  "source",
  "property_type",
  "budget_range",
  "budget_min",
  "budget_max",
  "bedrooms",
  "bathrooms",
  "timeline",
  "location",
  "status",
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export type ColumnMapping = (ImportField | "ignore")[];

/**
 * The export's columns: the guide's names written in one style (snake_case, so "lead source" is
 * lead_source), every one of which the import maps on its own, so an export imports straight back.
 */
export const EXPORT_COLUMNS = [
  "first_name",
  "last_name",
  "email",
  "phone",
  "company",
  "address",
  "tags",
  "notes",
  "lead_source",
  "property_type",
  "budget_range",
  "bedrooms",
  "bathrooms",
  "timeline",
  "area_of_interest",
  "current_status",
] as const;

const squash = (header: string) =>
  header
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

// Header names (squashed) each field answers to: the guide's names first, then common CRM export names.
const HEADER_ALIASES: Record<ImportField, string[]> = {
  first_name: ["first name", "firstname", "first", "given name"],
  last_name: ["last name", "lastname", "last", "surname", "family name"],
  name: ["name", "full name", "contact name", "contact"],
  email: ["email", "e mail", "email address", "e mail address", "primary email"],
  phone: ["phone", "phone number", "mobile", "mobile phone", "cell", "cell phone", "telephone", "primary phone"],
  company: ["company", "company name", "organization", "employer"],
  address: ["address", "street address", "mailing address", "home address"],
  tags: ["tags", "tag", "labels", "groups"],
  notes: ["notes", "note", "comments", "description"],
  source: ["lead source", "source", "origin"],
  property_type: ["property type", "property", "home type"],
  budget_range: ["budget range", "budget", "price range"],
  budget_min: ["budget min", "min budget", "min price", "price min"],
  budget_max: ["budget max", "max budget", "max price", "price max"],
  bedrooms: ["bedrooms", "beds", "bed"],
  bathrooms: ["bathrooms", "baths", "bath"],
  timeline: ["timeline", "timeframe", "time frame"],
  location: ["area of interest", "location", "preferred location", "area", "city", "neighborhood"],
  status: ["current status", "status", "stage", "lead status"],
};

/** Maps each header to the field it names, or "ignore"; a field is taken by its first matching column only. */
export function autoMap(headers: string[]): ColumnMapping {
  const taken = new Set<ImportField>();
  return headers.map((header) => {
    const key = squash(header);
    const field = IMPORT_FIELDS.find((f) => !taken.has(f) && HEADER_ALIASES[f].includes(key));
    if (!field) return "ignore";
    taken.add(field);
    return field;
  });
}

/**
 * The guide's statuses in Porchlight's temperature terms (documented in ADR 0012): a new Lead is warm,
 * an active Prospect or Client is hot, a Past Client is part of the sphere and cold. hot/warm/cold pass through.
 * A row marked New (or New lead) is warm too, and is a new lead: alerted and timed on the dashboard (ADR 0032).
 */
const STATUS_FROM_IMPORT: Record<string, ContactStatus> = {
  new: "warm",
  "new lead": "warm",
  lead: "warm",
  prospect: "hot",
  client: "hot",
  "past client": "cold",
  hot: "hot",
  warm: "warm",
  cold: "cold",
};

/** The statuses that mark an imported row as a new lead. */
const NEW_LEAD_STATUSES = new Set(["new", "new lead"]);

const SOURCE_WORDS: [RegExp, ContactSource][] = [
  [/open house/, "open_house"],
  [/referr|sphere|past client|friend|family/, "referral"],
  [/cold call|call|phone/, "cold_call"],
  [/social|facebook|instagram|linkedin|tiktok|twitter|x com/, "social_media"],
  [/zillow/, "zillow"],
  [/realtor com|realtor\.com|realtorcom/, "realtor_com"],
  [/homes com|homes\.com/, "homes_com"],
  [/redfin/, "redfin"],
  [/trulia/, "trulia"],
  [/web|site|online|realtor|portal|google|internet|seo|ppc/, "website"],
];

const PROPERTY_WORDS: [RegExp, PropertyType][] = [
  [/town ?(house|home)|row ?house/, "townhouse"],
  [/condo|apartment|flat|co op/, "condo"],
  [/land|lot|acre/, "land"],
  [/commercial|office|retail|industrial/, "commercial"],
  [/house|home|single|sfh|sfr|detached|family/, "house"],
];

/** Amounts like "450000", "$450,000", "450k", "1.2m". */
function amount(text: string): number | null {
  const match = text
    .toLowerCase()
    .replace(/[$,\s]/g, "")
    .match(/^(\d+(?:\.\d+)?)([km])?$/);
  if (!match) return null;
  const value = Number(match[1]) * (match[2] === "k" ? 1_000 : match[2] === "m" ? 1_000_000 : 1);
  return Math.round(value);
}

/** "450000-650000", "$450k – $650k", "up to 500k", "500000": [min, max]; a single amount is the maximum. */
export function parseBudgetRange(text: string): { min: number | null; max: number | null } | null {
  const cleaned = text
    .trim()
    .toLowerCase()
    .replace(/^up to\s*/, "");
  if (!cleaned) return { min: null, max: null };
  // "450000-" or "from 450000": a minimum only.
  const from = cleaned.match(/^(?:from\s*)?([^-–—]+?)\s*[-–—]$/) ?? cleaned.match(/^from\s*(.+)$/);
  if (from) {
    const min = amount(from[1]!);
    return min === null ? null : { min, max: null };
  }
  const parts = cleaned.split(/\s*(?:-|–|—|\bto\b)\s*/).filter(Boolean);
  if (parts.length === 1) {
    const max = amount(parts[0]!);
    return max === null ? null : { min: null, max };
  }
  if (parts.length !== 2) return null;
  const [min, max] = [amount(parts[0]!), amount(parts[1]!)];
  return min === null || max === null ? null : { min, max };
}

export interface MappedRow {
  /** The contact fields, ready for ContactInputSchema. */
  input: Record<string, unknown>;
  /** Problems found while mapping (before validation). */
  problems: string[];
  /** The row's status says New (or New lead): a lead that has just arrived, not an old one (ADR 0032). */
  newLead: boolean;
}

/** One CSV row through the mapping, into the contact form's field names. */
export function mapRow(cells: string[], mapping: ColumnMapping): MappedRow {
  const value = (field: ImportField) => {
    const index = mapping.indexOf(field);
    const cell = index >= 0 ? (cells[index] ?? "").trim() : "";
    // Undo the apostrophe an export put before a formula-like cell.
    return cell.startsWith("'") && FORMULA_LIKE.test(cell.slice(1)) ? cell.slice(1) : cell;
  };
  const problems: string[] = [];
  const name = value("name") || [value("first_name"), value("last_name")].filter(Boolean).join(" ");
  const input: Record<string, unknown> = {
    name,
    email: value("email"),
    phone: value("phone"),
    company: value("company"),
    address: value("address"),
    tags: value("tags"),
    notes: value("notes"),
    timeline: value("timeline"),
    location: value("location"),
    bedrooms: value("bedrooms"),
    bathrooms: value("bathrooms"),
    budgetMin: value("budget_min"),
    budgetMax: value("budget_max"),
  };
  const range = value("budget_range");
  if (range) {
    const parsed = parseBudgetRange(range);
    if (parsed) {
      input.budgetMin = parsed.min;
      input.budgetMax = parsed.max;
    } else problems.push(`Budget range "${range}" is not a number or a range like 400000-650000.`);
  }
  const status = value("status");
  const newLead = NEW_LEAD_STATUSES.has(squash(status));
  if (status) {
    const mapped = STATUS_FROM_IMPORT[squash(status)];
    if (mapped) input.status = mapped;
    else problems.push(`Status "${status}" is not one of New, Lead, Prospect, Client, Past Client, Hot, Warm or Cold.`);
  }
  const source = squash(value("source")).replace(/_/g, " ");
  if (source) input.source = SOURCE_WORDS.find(([pattern]) => pattern.test(source))?.[1] ?? "other";
  const type = squash(value("property_type"));
  if (type) input.propertyType = PROPERTY_WORDS.find(([pattern]) => pattern.test(type))?.[1] ?? "other";
  return { input, problems, newLead };
}

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * Parses CSV text: UTF-8 with or without BOM, quoted fields, embedded commas and line breaks, CRLF. Blank
 * rows (also ones of only commas and spaces) are left out, and `lines[i]` is the line of the file on which
 * rows[i] starts (the header is line 1 when it is the first line), so messages name the line the agent sees
 * in an editor even after blank rows or line breaks inside quotes.
 */
export function parseCsv(text: string): { headers: string[]; rows: string[][]; lines: number[]; errors: string[] } {
  const body = text.replace(/^\uFEFF/, "");
  const kept: string[][] = [];
  const starts: number[] = [];
  const errors: string[] = [];
  let rowStart = 0;
  let counted = 0;
  let line = 1;
  Papa.parse<string[]>(body, {
    step: (result) => {
      // Lines are counted up to where this row starts (the previous row's end), once over the whole text.
      line += body.slice(counted, rowStart).match(LINE_BREAK)?.length ?? 0;
      counted = rowStart;
      rowStart = result.meta.cursor;
      for (const error of result.errors) if (error.code !== "UndetectableDelimiter") errors.push(`Line ${line}: ${error.message}`);
      if (result.data.every((cell) => cell.trim() === "")) return;
      kept.push(result.data);
      starts.push(line);
    },
  });
  const [headers = [], ...rows] = kept;
  return { headers: headers.map((h) => h.trim()), rows, lines: starts.slice(1), errors };
}

/** One contact as an export row (EXPORT_COLUMNS order). */
export function exportRow(contact: Contact): string[] {
  const [first = "", ...rest] = contact.name.split(" ");
  // "min-max", "min-" (a minimum only) or "max" (a maximum only): what parseBudgetRange reads back.
  const budget =
    contact.budgetMin != null ? `${contact.budgetMin}-${contact.budgetMax ?? ""}` : contact.budgetMax != null ? String(contact.budgetMax) : "";
  return [
    first,
    rest.join(" "),
    contact.email ?? "",
    contact.phone ?? "",
    contact.company ?? "",
    contact.address ?? "",
    contact.tags.join(", "),
    contact.notes ?? "",
    contact.source.replace(/_/g, " "),
    contact.propertyType,
    budget,
    contact.bedrooms?.toString() ?? "",
    contact.bathrooms?.toString() ?? "",
    contact.timeline ?? "",
    contact.location ?? "",
    contact.status,
  ];
}

/**
 * A cell a spreadsheet could run as a formula (CSV injection): starting with = or @, a tab or CR, or with
 * + or - and containing letters. Phone numbers like +1 555 0100 stay as they are.
 */
const FORMULA_LIKE = /^(?:[=@\t\r]|[+-].*[a-z])/i;

/** A CSV file body; formula-like cells get a leading apostrophe so they stay text (the import removes it). */
export function toCsv(header: readonly string[], rows: string[][]): string {
  return Papa.unparse({ fields: [...header], data: rows.map(safeRow) }, { newline: "\r\n" });
}

/** Rows without a header, each ending in CRLF: the continuation of a streamed toCsv. */
export function toCsvRows(rows: string[][]): string {
  return rows.length === 0 ? "" : `${Papa.unparse(rows.map(safeRow), { newline: "\r\n" })}\r\n`;
}

const safeRow = (row: string[]) => row.map((cell) => (FORMULA_LIKE.test(cell) ? `'${cell}` : cell));
