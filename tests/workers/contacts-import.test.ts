import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { createContact, listContacts } from "~/modules/contacts/contacts.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { autoMap, EXPORT_COLUMNS, exportRow, parseBudgetRange, parseCsv, toCsv, toCsvRows } from "~/modules/contacts/csv";
import { fileLine, IMPORT_MAX_BYTES, IMPORT_ROW_LIMIT, IMPORT_TOO_LARGE, validateRows } from "~/modules/contacts/import";
import { importContacts, INSERT_PAYLOAD_MAX_BYTES } from "~/modules/contacts/import.server";
import { IMPORT_MAX_BYTES as BENCH_MAX_BYTES, IMPORT_ROW_LIMIT as BENCH_ROW_LIMIT, largestImportRequest } from "../../bench/import-worst-case.mjs";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { leadsWaitingNow } from "~/modules/reports/figures.server";
import { createUser } from "../factories/users";

const owner = async () => (await createUser(env.DB)).id as UserId;
const all = async (userId: UserId) => (await listContacts(requestContext(), userId, { sort: "name", limit: 200 })).contacts;

const GUIDE_HEADER =
  "first_name,last_name,email,phone,company,address,tags,notes,lead source,property_type,budget_range,timeline,area of interest,current status";

async function importText(userId: UserId, text: string, mode: "skip" | "update" | "create" = "skip") {
  const { headers, rows } = parseCsv(text);
  return importContacts(requestContext(), userId, { rows, mapping: autoMap(headers), mode });
}

describe("CSV parsing and mapping", () => {
  it("reads BOM, quotes, embedded commas and line breaks, and CRLF", () => {
    const text = `\uFEFF${GUIDE_HEADER}\r\nDana,Reyes,dana@example.com,,"Reyes Realty, LLC","12 Elm St\r\nApt 4","buyer; vip","Said ""call after 5""",Open House,Single family,"$450k - $650k",3 months,Maple Grove,Prospect\r\n`;
    const { headers, rows, errors } = parseCsv(text);
    expect(errors).toEqual([]);
    expect(headers[0]).toBe("first_name");
    expect(rows).toHaveLength(1);
    expect(rows[0]![4]).toBe("Reyes Realty, LLC");
    expect(rows[0]![5]).toBe("12 Elm St\r\nApt 4");
    expect(rows[0]![7]).toBe('Said "call after 5"');
  });

  it("maps the guide's columns and common CRM names on its own", () => {
    expect(autoMap(GUIDE_HEADER.split(","))).toEqual([
      "first_name",
      "last_name",
      "email",
      "phone",
      "company",
      "address",
      "tags",
      "notes",
      "source",
      "property_type",
      "budget_range",
      "timeline",
      "location",
      "status",
    ]);
    expect(autoMap(["Full Name", "E-mail Address", "Mobile Phone", "Lead Status", "Favourite colour"])).toEqual([
      "name",
      "email",
      "phone",
      "status",
      "ignore",
    ]);
  });

  it("names the export's columns in one style, and the import maps every one of them", () => {
    for (const column of EXPORT_COLUMNS) expect(column).toMatch(/^[a-z]+(_[a-z]+)*$/);
    const mapping = autoMap([...EXPORT_COLUMNS]);
    expect(mapping).not.toContain("ignore");
    expect(new Set(mapping).size).toBe(EXPORT_COLUMNS.length);
  });

  it("reports the file's own line numbers after blank rows and line breaks inside quotes", () => {
    const text = [
      "name,email,current status",
      "Ann,ann@example.com,Lead",
      "",
      "Bob,,Lead",
      '"Cy',
      'Multi",cy@example.com,Someday',
      "Dee,dee@example.com,Lead",
      " , ,",
      "Eve,,Hot",
      "",
    ].join("\r\n");
    const { headers, rows, lines } = parseCsv(text);
    expect(rows.map((r) => r[0])).toEqual(["Ann", "Bob", "Cy\r\nMulti", "Dee", "Eve"]);
    expect(lines).toEqual([2, 4, 5, 7, 9]);
    const mapping = autoMap(headers);
    expect(validateRows(rows, mapping, lines).rejected.map((r) => r.line)).toEqual([4, 5, 9]);
    // The server numbers by position (it gets rows, not the file); the browser turns that into file lines.
    expect(validateRows(rows, mapping).rejected.map((r) => fileLine(r.line, lines))).toEqual([4, 5, 9]);
  });

  it("reads budget ranges in the ways people write them", () => {
    expect(parseBudgetRange("450000-650000")).toEqual({ min: 450000, max: 650000 });
    expect(parseBudgetRange("$450k – $1.2m")).toEqual({ min: 450000, max: 1200000 });
    expect(parseBudgetRange("up to 500,000")).toEqual({ min: null, max: 500000 });
    expect(parseBudgetRange("400000-")).toEqual({ min: 400000, max: null });
    expect(parseBudgetRange("cheap")).toBeNull();
  });
});

describe("CSV import", () => {
  it("imports valid rows with the documented mappings and refuses bad rows with their reasons", async () => {
    const userId = await owner();
    const text = [
      GUIDE_HEADER,
      `Dana,Reyes,DANA@example.com,,"Reyes Realty, LLC",12 Elm St,"buyer; vip",,Open House,Single family,$450k - $650k,3 months,Maple Grove,Prospect`,
      `Sam,Lee,,555 0100,,,,,Zillow,Condo,,,Lake Town,Past Client`,
      `,,nobody@example.com,,,,,,,,,,,Lead`,
      `Max,Power,,,,,,,,,,,,`,
      `Ann,Bad,ann@example.com,,,,,,,,lots of money,,,Someday`,
    ].join("\n");
    const summary = await importText(userId, text);
    expect(summary).toMatchObject({ created: 2, updated: 0, skipped: 0 });
    expect(summary.rejected.map((r) => [r.line, r.reasons])).toEqual([
      [4, ["Name is required"]],
      [5, ["Phone or email is required"]],
      [
        6,
        [
          'Budget range "lots of money" is not a number or a range like 400000-650000.',
          'Status "Someday" is not one of New, Lead, Prospect, Client, Past Client, Hot, Warm or Cold.',
        ],
      ],
    ]);
    const [dana, sam] = await all(userId);
    expect(dana).toMatchObject({
      name: "Dana Reyes",
      email: "dana@example.com",
      company: "Reyes Realty, LLC",
      tags: ["buyer", "vip"],
      source: "open_house",
      propertyType: "house",
      budgetMin: 450000,
      budgetMax: 650000,
      location: "Maple Grove",
      status: "hot",
      timeline: "3 months",
    });
    // "Zillow" is a source of its own since lead intake (ADR 0065), no longer folded into Website.
    expect(sam).toMatchObject({ name: "Sam Lee", phone: "555 0100", source: "zillow", propertyType: "condo", status: "cold" });
  });

  it("handles duplicates by e-mail in each mode: skip, update existing, create duplicates", async () => {
    const userId = await owner();
    await createContact(
      requestContext(),
      userId,
      ContactInputSchema.parse({ name: "Dana Reyes", email: "dana@example.com", phone: "555 0001", tags: ["old"] }),
    );
    const text = `name,email,phone,tags,notes\nDana R.,Dana@Example.com,,new,Moved to Lake Town\nNew Person,new@example.com,,,\nNew Person Again,NEW@example.com,555 0002,,`;

    const skipped = await importText(userId, text, "skip");
    expect(skipped).toMatchObject({ created: 1, updated: 0, skipped: 2 });
    expect((await all(userId)).map((c) => c.name)).toEqual(["Dana Reyes", "New Person"]);

    const updated = await importText(userId, text, "update");
    expect(updated).toMatchObject({ created: 0, updated: 2, skipped: 0 });
    const [dana, newPerson] = await all(userId);
    // Values from the file win, blanks never erase, tags are united.
    expect(dana).toMatchObject({ name: "Dana R.", phone: "555 0001", tags: ["old", "new"], notes: "Moved to Lake Town" });
    expect(newPerson).toMatchObject({ name: "New Person Again", phone: "555 0002" });

    const created = await importText(userId, text, "create");
    expect(created).toMatchObject({ created: 3, updated: 0, skipped: 0 });
    expect(await all(userId)).toHaveLength(5);
  });

  it("makes the rows marked New new leads, alerted and timed like a lead added by hand, and no other row", async () => {
    const userId = await owner();
    await createContact(requestContext(), userId, ContactInputSchema.parse({ name: "Known Buyer", email: "known@example.com" }));
    const text = [
      "name,email,phone,current status",
      "Nia Fresh,nia@example.com,,New",
      "Omar Fresh,,555 0110,new lead",
      "Old Lead,old@example.com,,Lead",
      "No Status,none@example.com,,",
      "Known Buyer,KNOWN@example.com,555 0111,New",
      "Pia Twice,pia@example.com,,Warm",
      "Pia Twice,PIA@example.com,555 0112,New",
    ].join("\n");
    const summary = await importText(userId, text, "update");
    expect(summary).toMatchObject({ created: 5, updated: 1, skipped: 0, newLeads: 3, rejected: [] });
    const byName = Object.fromEntries((await all(userId)).map((c) => [c.name, c]));
    expect(byName["Nia Fresh"]).toMatchObject({ status: "warm" });
    // An update of a contact already here is not a new lead, whatever the file says.
    expect((await leadsWaitingNow(requestContext(), userId)).leads.map((l) => l.name).sort()).toEqual(["Nia Fresh", "Omar Fresh", "Pia Twice"]);
    const [first] = (await leadsWaitingNow(requestContext(), userId)).leads;
    expect(Date.now() - first!.arrivedAt).toBeLessThan(60_000);

    // A failed import writes no alert either: they are in one transaction with the contacts. The update of the
    // contact already here runs after the inserts and their alerts, and fails at execution time.
    await env.DB.prepare(
      `CREATE TRIGGER fail_import_alerts BEFORE UPDATE ON contacts WHEN new.notes = 'poison' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    ).run();
    try {
      const text2 = "name,email,notes,current status\nQuin New,quin@example.com,,New\nKnown Buyer,known@example.com,poison,New";
      await expect(importText(userId, text2, "update")).rejects.toThrow(/injected failure/);
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_import_alerts").run();
    }
    expect((await leadsWaitingNow(requestContext(), userId)).leads).toHaveLength(3);
    expect((await all(userId)).map((c) => c.name)).not.toContain("Quin New");
  });

  it("writes nothing when any write fails", async () => {
    const userId = await owner();
    const poison = `Poison ${crypto.randomUUID()}`;
    // A database trigger that fails one row, late in the batch, at execution time.
    await env.DB.prepare(
      `CREATE TRIGGER fail_import_test BEFORE INSERT ON contacts WHEN new.name = '${poison}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    ).run();
    try {
      const rows = Array.from({ length: 12 }, (_, i) => `Person ${i},p${i}@example.com`);
      rows.push(`${poison},poison@example.com`);
      await expect(importText(userId, ["name,email", ...rows].join("\n"))).rejects.toThrow(/injected failure/);
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_import_test").run();
    }
    expect(await all(userId)).toEqual([]);
  });

  it("round-trips an export through the import unchanged", async () => {
    const source = await owner();
    const ctx = requestContext();
    const originals = [
      {
        name: "Mary Ann Smith",
        email: "mary@example.com",
        phone: "+1 555 010 2000",
        company: "Smith & Co, LLC",
        address: "1 Main St\nUnit 2",
        tags: ["buyer", "first-time"],
        notes: '=HYPERLINK("x") is just text',
        source: "open_house",
        propertyType: "townhouse",
        budgetMin: 400000,
        budgetMax: 650000,
        bedrooms: 3,
        bathrooms: 2,
        timeline: "spring",
        location: "Maple Grove",
        status: "hot",
      },
      { name: "Solo", phone: "555 0101", budgetMax: 300000, source: "cold_call", propertyType: "land", status: "warm" },
      { name: "Minny Min", email: "min@example.com", budgetMin: 250000, status: "cold" },
    ];
    for (const o of originals) await createContact(ctx, source, ContactInputSchema.parse(o));
    const exported = (await all(source)).map(exportRow);
    const csv = toCsv(EXPORT_COLUMNS, exported);
    expect(csv).toContain(`'=HYPERLINK`);
    // The streamed export (header, then pages of rows) writes the same text, row for row.
    expect(`${toCsvRows([[...EXPORT_COLUMNS]])}${toCsvRows(exported.slice(0, 2))}${toCsvRows(exported.slice(2))}`).toBe(`${csv}\r\n`);

    const target = await owner();
    const summary = await importText(target, csv, "create");
    expect(summary).toMatchObject({ created: 3, rejected: [] });
    const strip = (c: Awaited<ReturnType<typeof all>>[number]) => {
      const { id, seq, userId, createdAt, updatedAt, lastActivity, leadScoredAt, ...rest } = c;
      return rest;
    };
    expect((await all(target)).map(strip)).toEqual((await all(source)).map(strip));
  });
});

/** The real D1, recording the byte size of each JSON array bound to an insert over json_each. */
function recordingD1(sizes: number[]): D1Database {
  return new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const statement = target.prepare(sql);
          if (!sql.includes("json_each")) return statement;
          return new Proxy(statement, {
            get(inner, name) {
              if (name === "bind")
                return (...values: unknown[]) => {
                  sizes.push(new TextEncoder().encode(String(values[1])).length);
                  return inner.bind(...values);
                };
              const value = Reflect.get(inner, name);
              return typeof value === "function" ? value.bind(inner) : value;
            },
          });
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const postImport = (browser: Awaited<ReturnType<typeof signInAs>>, body: string) =>
  browser.fetch("/api/contacts/import", { method: "POST", headers: { Origin: "http://localhost", "Content-Type": "application/json" }, body });

describe("large imports", () => {
  it("imports 700 rows with 9,000-character notes (6.3 MB) in one request", async () => {
    const user = await createUser(env.DB);
    const rows = Array.from({ length: 700 }, (_, i) => [`Long Notes ${i}`, `long-${i}@example.com`, `${i % 10}`.repeat(9_000)]);
    const response = await postImport(await signInAs(user), JSON.stringify({ rows, mapping: ["name", "email", "notes"], mode: "skip" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, summary: { created: 700, updated: 0, skipped: 0, rejected: [] } });
    const stored = await env.DB.prepare("select count(*) as n, min(length(notes)) as shortest from contacts where user_id = ?")
      .bind(user.id)
      .first<{ n: number; shortest: number }>();
    expect(stored).toEqual({ n: 700, shortest: 9_000 });
  });

  it("cuts the inserts by bytes: no bound JSON array passes INSERT_PAYLOAD_MAX_BYTES, multi-byte notes included", async () => {
    const userId = await owner();
    const sizes: number[] = [];
    // 9,000 characters of 界 are 27,000 bytes: counting characters would pack 2.7 times too much.
    const rows = Array.from({ length: 300 }, (_, i) => [`Wide Notes ${i}`, `wide-${i}@example.com`, "界".repeat(9_000)]);
    const summary = await importContacts(requestContext({ DB: recordingD1(sizes) }), userId, {
      rows,
      mapping: ["name", "email", "notes"],
      mode: "create",
    });
    expect(summary.created).toBe(300);
    expect(sizes.length).toBeGreaterThanOrEqual(Math.ceil((300 * 27_000) / INSERT_PAYLOAD_MAX_BYTES));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(INSERT_PAYLOAD_MAX_BYTES);
    // Well packed: every array but the last is within one row of the limit.
    for (const size of sizes.slice(0, -1)) expect(size).toBeGreaterThan(INSERT_PAYLOAD_MAX_BYTES - 28_000);
    expect((await all(userId)).length).toBe(200); // `all` reads one page of 200
  });

  it("accepts a request of exactly IMPORT_MAX_BYTES and refuses one byte more with 413, writing nothing", async () => {
    // The benchmark times the same worst case at the row limit too; its copy of the limits must be these.
    expect([BENCH_MAX_BYTES, BENCH_ROW_LIMIT]).toEqual([IMPORT_MAX_BYTES, IMPORT_ROW_LIMIT]);
    const user = await createUser(env.DB);
    const browser = await signInAs(user);
    const over = largestImportRequest({ bytes: IMPORT_MAX_BYTES + 1, rows: 2_000, tag: "over" });
    const refused = await postImport(browser, over.body);
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ ok: false, error: IMPORT_TOO_LARGE });
    expect(await env.DB.prepare("select count(*) as n from contacts where user_id = ?").bind(user.id).first("n")).toBe(0);

    const exact = largestImportRequest({ bytes: IMPORT_MAX_BYTES, rows: 2_000, tag: "exact" });
    const accepted = await postImport(browser, exact.body);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ ok: true, summary: { created: 2_000, rejected: [] } });
  });
});
