import type { DealStage } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { toCsvRows } from "~/modules/contacts/csv";
import { stageByKey } from "~/modules/pipeline/stages";
import { localNow } from "~/modules/tasks/due";

type D1 = Env["DB"];
type Row = Record<string, unknown>;

/** What a row's cells need besides the row: the agent's stages (names) and timezone (local times). */
export interface CsvContext {
  stages: readonly DealStage[];
  timezone: string;
}

interface CsvEntity {
  label: string;
  /** Reads one page of the owner's rows after `rowid`, joined with the names a spreadsheet needs. */
  sql: string;
  columns: readonly string[];
  cells: (row: Row, context: CsvContext) => string[];
}

const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const dollars = (cents: unknown) => (typeof cents === "number" ? (cents / 100).toFixed(2) : "");
/** An instant as the agent's own "YYYY-MM-DD HH:MM", which every spreadsheet reads as a date and time. */
const local = (ms: unknown, timezone: string) => {
  if (typeof ms !== "number") return "";
  const { date, time } = localNow(timezone, new Date(ms));
  return `${date} ${time}`;
};

/**
 * Deals, tasks and activities as spreadsheets (decisions.md: every entity as JSON and CSV). Money in
 * dollars with cents, percentages as numbers, times in the agent's timezone, linked contacts and deals by name.
 * Contacts have their own CSV (/contacts/export.csv), in the import's columns, so it can be imported back.
 */
const CSV_ENTITIES = {
  deals: {
    label: "Deals",
    sql: `select d.rowid as __rowid, d.*, c.name as contact_name from deals d left join contacts c on c.id = d.contact_id and c.user_id = d.user_id
          where d.user_id = ?1 and d.rowid > ?2 order by d.rowid limit ?3`,
    columns: [
      "title",
      "contact",
      "stage",
      "side",
      "property_address",
      "deal_value",
      "commission_rate_pct",
      "probability_pct",
      "expected_close_date",
      "closed_date",
      "lost_reason",
      "inspection_date",
      "appraisal_date",
      "financing_date",
      "closing_date",
      "notes",
      "created",
      "updated",
    ],
    cells: (r, { stages, timezone }) => [
      text(r.title),
      text(r.contact_name),
      stageByKey(stages, text(r.stage))?.name ?? text(r.stage),
      text(r.side),
      text(r.property_address),
      dollars(r.deal_value_cents),
      text(r.commission_rate),
      text(r.probability),
      text(r.expected_close_date),
      text(r.closed_date),
      text(r.lost_reason),
      text(r.inspection_date),
      text(r.appraisal_date),
      text(r.financing_date),
      text(r.closing_date),
      text(r.notes),
      local(r.created_at, timezone),
      local(r.updated_at, timezone),
    ],
  },
  tasks: {
    label: "Tasks",
    sql: `select t.rowid as __rowid, t.*, c.name as contact_name, d.title as deal_title from crm_tasks t
          left join contacts c on c.id = t.contact_id and c.user_id = t.user_id left join deals d on d.id = t.deal_id and d.user_id = t.user_id
          where t.user_id = ?1 and t.rowid > ?2 order by t.rowid limit ?3`,
    columns: ["title", "type", "priority", "status", "due_date", "due_time", "repeat", "contact", "deal", "notes", "completed", "created"],
    cells: (r, { timezone }) => [
      text(r.title),
      text(r.type),
      text(r.priority),
      text(r.status),
      text(r.due_date),
      text(r.due_time),
      text(r.repeat),
      text(r.contact_name),
      text(r.deal_title),
      text(r.notes),
      local(r.completed_at, timezone),
      local(r.created_at, timezone),
    ],
  },
  activities: {
    label: "Activities",
    sql: `select a.rowid as __rowid, a.*, c.name as contact_name, d.title as deal_title from crm_activities a
          left join contacts c on c.id = a.contact_id and c.user_id = a.user_id left join deals d on d.id = a.deal_id and d.user_id = a.user_id
          where a.user_id = ?1 and a.rowid > ?2 order by a.rowid limit ?3`,
    columns: ["when", "type", "contact", "deal", "outcome", "notes"],
    cells: (r, { timezone }) => [
      local(r.occurred_at, timezone),
      text(r.type),
      text(r.contact_name),
      text(r.deal_title),
      text(r.outcome),
      text(r.notes),
    ],
  },
} satisfies Record<string, CsvEntity>;

export type CsvEntityKey = keyof typeof CSV_ENTITIES;
export const isCsvEntity = (value: string): value is CsvEntityKey => Object.hasOwn(CSV_ENTITIES, value);

const PAGE = 500;

/** The entity's CSV (BOM, header, then the owner's rows a page at a time), as a stream. */
export function csvStream(db: D1, userId: string, entity: CsvEntityKey, context: CsvContext): ReadableStream<Uint8Array> {
  const spec: CsvEntity = CSV_ENTITIES[entity];
  const encoder = new TextEncoder();
  let after = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${toCsvRows([[...spec.columns]])}`));
    },
    async pull(controller) {
      const { results } = await db.prepare(spec.sql).bind(userId, after, PAGE).all<Row>();
      if (results.length > 0) {
        controller.enqueue(encoder.encode(toCsvRows(results.map((row) => spec.cells(row, context)))));
        after = Number(results[results.length - 1]!.__rowid);
      }
      if (results.length < PAGE) controller.close();
    },
  });
}
