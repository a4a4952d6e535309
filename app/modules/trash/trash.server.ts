import { getTableColumns } from "drizzle-orm";
import { trashAuditStatement, type AuditWhere } from "~/modules/audit/audit.server";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TrashKind } from "~/db/enums";
import { contacts, crmActivities, crmTasks, dealStageHistory, deals } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { newId } from "~/lib/crypto";
import { TRASH_DAYS } from "./trash";

// The 30-day trash (ADR 0028). Deleting a contact, deal or task MOVES it, with the rows deleted along
// with it, into trash_items/trash_rows; the live tables keep no trace, so lists, search (the FTS triggers),
// report counters, insights and exports ignore trashed rows by construction. Restoring puts the raw rows back
// and re-links what the delete unlinked. Both are one D1 batch (a transaction) per chunk, and both copy the rows
// inside SQL (json_object / json_extract), so nothing written between a read and the delete can be lost and no
// row makes a round trip through the Worker: integers stay integers, text stays text.

type D1 = Env["DB"];

export { TRASH_DAYS };
export const TRASH_MS = TRASH_DAYS * 86_400_000;

/** Items per batch: each statement fires the live tables' triggers for every row it moves. */
const CHUNK = 500;
/** Ids per `link` row: a contact with 20,000 activities stays far below D1's row size. */
const LINK_CHUNK = 500;

interface Moved {
  /** The live table the item lives in. */
  table: string;
  /** Column shown as the item's title in the trash. */
  title: string;
  /** Rows deleted with the item by `on delete cascade`, by the column that points at it. Trigger-kept rows are not here. */
  children: readonly { table: string; column: string }[];
  /** Rows whose key the delete sets to null (`on delete set null`): re-linked on restore. */
  links: readonly { table: string; column: string }[];
}

/**
 * What moves with what (app/db/schema.ts). A contact's contact_tags (and the counters) are kept by triggers from
 * contacts.tags, so re-inserting the contact re-creates them; deal_stage_history is copied because its rows are
 * history the triggers cannot rebuild (the insert trigger's single stay is replaced on restore).
 */
export const TRASHED: Record<TrashKind, Moved> = {
  contact: {
    table: "contacts",
    title: "name",
    children: [],
    links: [
      { table: "deals", column: "contact_id" },
      { table: "crm_tasks", column: "contact_id" },
      { table: "crm_activities", column: "contact_id" },
      { table: "properties", column: "contact_id" },
      { table: "lead_intake_messages", column: "contact_id" },
      { table: "contact_emails", column: "contact_id" },
    ],
  },
  deal: {
    table: "deals",
    title: "title",
    children: [
      { table: "deal_stage_history", column: "deal_id" },
      { table: "crm_activities", column: "deal_id" },
    ],
    links: [
      { table: "crm_tasks", column: "deal_id" },
      { table: "properties", column: "deal_id" },
    ],
  },
  task: {
    table: "crm_tasks",
    title: "title",
    children: [],
    links: [
      { table: "crm_activities", column: "task_id" },
      { table: "plan_run_events", column: "task_id" },
    ],
  },
};

/**
 * Rows that point at a trashed item and go with it for good (`on delete cascade`, not kept for a restore), and why.
 */
export const NOT_RESTORED: Readonly<Record<string, string>> = {
  "lead_alerts.contact_id->contacts": "a new lead's alert is about the moment it arrived (ADR 0032): a restored contact is not a new lead",
  "lead_first_replies.contact_id->contacts":
    "a new lead's instant first reply is sent once (ADR 0068): it goes with the deleted contact, and a restored contact is not a new lead to reply to",
  "plan_runs.contact_id->contacts":
    "a contact's action plans stop for good with them (ADR 0072): a restored contact is not put back on a plan behind the agent's back",
  "team_leads.contact_id->contacts":
    "the team's record of who got a lead (ADR 0038) keeps who and when; it does not follow the contact into the trash and back",
  "deal_shares.deal_id->deals":
    "a share is between teammates as they are now (ADR 0037): a restored deal is shared again from its page, not behind a co-agent's back",
};

/**
 * Optional keys of the rows a restore writes back, to tables of the user's that may have lost the row since:
 * such a key comes back null instead of failing the restore (a deal's contact deleted for good meanwhile).
 */
const NULLABLE_KEYS: Record<string, Record<string, string>> = {
  contacts: {},
  deals: { contact_id: "contacts" },
  crm_tasks: { contact_id: "contacts", deal_id: "deals" },
  crm_activities: { contact_id: "contacts", task_id: "crm_tasks" },
  deal_stage_history: {},
};
/** Rowid aliases: a restored row takes a fresh one (the old may be taken; contacts.seq is only the search index's key). */
const FRESH_KEYS = new Set(["seq"]);
/** Tables in the order a restore writes them: parents before the rows that point at them. */
const RESTORE_ORDER = ["contacts", "deals", "crm_tasks", "deal_stage_history", "crm_activities"] as const;

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unexpected identifier: ${name}`);
  return `"${name}"`;
};

// Each table's columns, from the schema (the same list `select *` gives), so no statement asks the database for them.
const TABLES: Record<string, SQLiteTable> = {
  contacts,
  deals,
  crm_tasks: crmTasks,
  crm_activities: crmActivities,
  deal_stage_history: dealStageHistory,
};
function columnsOf(tables: readonly string[]): Map<string, string[]> {
  return new Map(tables.map((t) => [t, Object.values(getTableColumns(TABLES[t]!)).map((c) => c.name)]));
}

/**
 * A column's value as the trash keeps it. A key an earlier delete set to null (a deal whose contact went to the trash
 * first) is kept as it was before that delete, read from the earlier item's link rows: a restore in either order then
 * links the rows again (a key to a row that is not back, or not the user's, comes back null; see NULLABLE_KEYS).
 */
function keptValue(table: string, alias: string, column: string): string {
  const value = `${alias}.${ident(column)}`;
  if (!NULLABLE_KEYS[table]?.[column]) return value;
  return `coalesce(${value}, (select t.item_id from trash_rows r join trash_items t on t.id = r.trash_id, json_each(r.data, '$.ids') j
    where r.user_id = ${alias}.user_id and r.role = 'link' and r.tbl = '${table}' and json_extract(r.data, '$.column') = '${column}' and j.value = ${alias}.id
    order by t.deleted_at desc limit 1))`;
}

const chunked = <T>(items: T[], size = CHUNK) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export interface TrashResult {
  /** The trash items made, for an undo. */
  trashIds: string[];
  /** How many items moved (others' or missing ids are ignored). */
  moved: number;
}

/**
 * Moves the user's contacts, deals or tasks among `ids` (others' ids are ignored) to the trash, with their
 * children and the list of rows the delete unlinks. One batch per chunk of 500: the trash rows are copied and
 * the live rows deleted in the same transaction.
 */
export async function moveToTrash(
  db: D1,
  userId: string,
  kind: TrashKind,
  ids: readonly string[],
  now = Date.now(),
  where?: AuditWhere,
): Promise<TrashResult> {
  const spec = TRASHED[kind];
  const tables = [spec.table, ...spec.children.map((c) => c.table)];
  const columns = columnsOf(tables);
  const rowJson = (table: string, alias: string) =>
    `json_object(${columns
      .get(table)!
      .map((c) => `'${c}', ${keptValue(table, alias, c)}`)
      .join(", ")})`;
  const result: TrashResult = { trashIds: [], moved: 0 };
  for (const part of chunked([...new Set(ids)])) {
    // The trash ids are made here, paired with the asked ids; an id that is not the user's pairs with nothing.
    const pairs = part.map((id) => [newId(), id]);
    const mine = `(select json_extract(value, '$[0]') from json_each(?1))`;
    const statements = [
      db
        .prepare(
          `insert into trash_items (id, user_id, kind, item_id, title, deleted_at)
           select json_extract(j.value, '$[0]'), x.user_id, ?3, x.id, coalesce(x.${ident(spec.title)}, ''), ?4
           from json_each(?1) j join ${ident(spec.table)} x on x.id = json_extract(j.value, '$[1]') and x.user_id = ?2
           returning id`,
        )
        .bind(JSON.stringify(pairs), userId, kind, now),
      db
        .prepare(
          `insert into trash_rows (trash_id, user_id, seq, tbl, role, data)
           select t.id, t.user_id, 0, '${spec.table}', 'item', ${rowJson(spec.table, "x")}
           from trash_items t join ${ident(spec.table)} x on x.id = t.item_id and x.user_id = t.user_id where t.id in ${mine}`,
        )
        .bind(JSON.stringify(pairs)),
      ...spec.children.map((child) =>
        db
          .prepare(
            `insert into trash_rows (trash_id, user_id, seq, tbl, role, data)
             select t.id, t.user_id, c.rowid, '${child.table}', 'child', ${rowJson(child.table, "c")}
             from trash_items t join ${ident(child.table)} c on c.${ident(child.column)} = t.item_id and c.user_id = t.user_id where t.id in ${mine}`,
          )
          .bind(JSON.stringify(pairs)),
      ),
      ...spec.links.map((link) =>
        db
          .prepare(
            `insert into trash_rows (trash_id, user_id, seq, tbl, role, data)
             select trash_id, ?2, min(n), '${link.table}', 'link', json_object('column', '${link.column}', 'ids', json_group_array(id))
             from (select t.id as trash_id, l.id as id, row_number() over (partition by t.id order by l.id) as n
                   from trash_items t join ${ident(link.table)} l on l.${ident(link.column)} = t.item_id and l.user_id = t.user_id where t.id in ${mine})
             group by trash_id, (n - 1) / ${LINK_CHUNK}`,
          )
          .bind(JSON.stringify(pairs), userId),
      ),
      // The audit row (ADR 0073) with the batch that makes the trash items; none when nothing moved.
      ...(where
        ? [trashAuditStatement(db, { action: "record.deleted", idsJson: JSON.stringify(pairs), trashIdsSql: mine, userId, kind, where, at: now })]
        : []),
      // The live row goes last; its children go by cascade and its links are set null by their keys.
      db
        .prepare(
          `delete from ${ident(spec.table)} where user_id = ?2 and id in (select item_id from trash_items where id in ${mine} and user_id = ?2)`,
        )
        .bind(JSON.stringify(pairs), userId),
    ];
    const [made] = await db.batch<{ id: string }>(statements);
    const trashIds = (made?.results ?? []).map((r) => r.id);
    result.trashIds.push(...trashIds);
    result.moved += trashIds.length;
  }
  return result;
}

export type RestoreResult = {
  restored: number;
  byKind: Record<TrashKind, number>;
  /** The ids the restored contacts, deals and tasks have again. */
  items: string[];
  notFound: number;
  conflicts: number;
};

/**
 * Puts the user's trash items among `trashIds` back (others' ids count as not found): the item with its id,
 * its children, then the rows the delete unlinked that are still unlinked and still the user's. A key in a
 * restored row to a row that is gone comes back null. An item whose id is taken again stays in the trash.
 */
export async function restoreFromTrash(
  db: D1,
  userId: string,
  trashIds: readonly string[],
  kind?: TrashKind,
  where?: AuditWhere,
): Promise<RestoreResult> {
  const asked = [...new Set(trashIds)];
  const result: RestoreResult = { restored: 0, byKind: { contact: 0, deal: 0, task: 0 }, items: [], notFound: 0, conflicts: 0 };
  const columns = columnsOf(RESTORE_ORDER);
  for (const part of chunked(asked)) {
    const { results: found } = await db
      .prepare(
        `select t.id, t.kind, t.item_id from trash_items t join json_each(?1) j on j.value = t.id where t.user_id = ?2 and (?3 is null or t.kind = ?3)`,
      )
      .bind(JSON.stringify(part), userId, kind ?? null)
      .all<{ id: string; kind: TrashKind; item_id: string }>();
    result.notFound += part.length - found.length;
    // An item whose id exists again (a restore elsewhere, or an import) is left in the trash rather than merged.
    const taken = new Set<string>();
    for (const kind of Object.keys(TRASHED) as TrashKind[]) {
      const itemIds = found.filter((f) => f.kind === kind).map((f) => f.item_id);
      if (!itemIds.length) continue;
      const { results } = await db
        .prepare(`select id from ${ident(TRASHED[kind].table)} where id in (select value from json_each(?))`)
        .bind(JSON.stringify(itemIds))
        .all<{ id: string }>();
      for (const r of results) taken.add(r.id);
    }
    const ready = found.filter((f) => !taken.has(f.item_id));
    result.conflicts += found.length - ready.length;
    if (!ready.length) continue;
    const ids = JSON.stringify(ready.map((f) => f.id));
    const dealIds = JSON.stringify(ready.filter((f) => f.kind === "deal").map((f) => f.item_id));
    const statements: D1PreparedStatement[] = [];
    for (const table of RESTORE_ORDER) {
      const cols = columns.get(table)!.filter((c) => !FRESH_KEYS.has(c));
      const value = (c: string) => {
        if (c === "user_id") return "?2";
        const raw = `json_extract(r.data, '$.${c}')`;
        const parent = NULLABLE_KEYS[table]?.[c];
        return parent ? `(select p.id from ${ident(parent)} p where p.id = ${raw} and p.user_id = ?2)` : raw;
      };
      // Re-inserting a deal opened a fresh stay (the insert trigger); its stored history replaces it.
      if (table === "deal_stage_history")
        statements.push(
          db.prepare(`delete from deal_stage_history where user_id = ?2 and deal_id in (select value from json_each(?1))`).bind(dealIds, userId),
        );
      statements.push(
        db
          .prepare(
            `insert into ${ident(table)} (${cols.map(ident).join(", ")})
             select ${cols.map(value).join(", ")} from trash_rows r
             where r.trash_id in (select value from json_each(?1)) and r.user_id = ?2 and r.tbl = '${table}' and r.role in ('item', 'child')
             order by r.trash_id, r.seq`,
          )
          .bind(ids, userId),
      );
    }
    // Re-link what the delete unlinked: only the user's rows, and only those still without a link.
    const linkPairs = new Map<string, { table: string; column: string }>();
    for (const spec of Object.values(TRASHED)) for (const l of spec.links) linkPairs.set(`${l.table}.${l.column}`, l);
    for (const { table, column } of linkPairs.values()) {
      statements.push(
        db
          .prepare(
            `update ${ident(table)} set ${ident(column)} = x.item_id
             from (select t.item_id, j.value as id from trash_rows r join trash_items t on t.id = r.trash_id, json_each(r.data, '$.ids') j
                   where r.trash_id in (select value from json_each(?1)) and r.user_id = ?2 and r.role = 'link' and r.tbl = '${table}' and json_extract(r.data, '$.column') = '${column}') x
             where ${ident(table)}.id = x.id and ${ident(table)}.user_id = ?2 and ${ident(table)}.${ident(column)} is null`,
          )
          .bind(ids, userId),
      );
    }
    if (where) {
      const kinds = [...new Set(ready.map((f) => f.kind))];
      const audit = { idsJson: ids, trashIdsSql: "(select value from json_each(?1))", userId, where, at: Date.now() };
      statements.push(trashAuditStatement(db, { ...audit, action: "record.restored", kind: kinds.length === 1 ? kinds[0]! : "record" }));
    }
    statements.push(db.prepare(`delete from trash_items where id in (select value from json_each(?1)) and user_id = ?2`).bind(ids, userId));
    await db.batch(statements);
    result.restored += ready.length;
    for (const f of ready) {
      result.byKind[f.kind] += 1;
      result.items.push(f.item_id);
    }
  }
  return result;
}

export interface TrashListItem {
  id: string;
  kind: TrashKind;
  itemId: string;
  title: string;
  deletedAt: number;
}

/** How many items the trash page shows at once (newest first); the rest follow as those are restored or purged. */
const TRASH_PAGE = 200;

/** The user's trash, newest first, and how many items it holds in all. */
export async function listTrash(db: D1, userId: string, limit = TRASH_PAGE): Promise<{ items: TrashListItem[]; total: number }> {
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `select id, kind, item_id as itemId, title, deleted_at as deletedAt from trash_items where user_id = ? order by deleted_at desc, id limit ?`,
      )
      .bind(userId, limit),
    db.prepare(`select count(*) as n from trash_items where user_id = ?`).bind(userId),
  ]);
  return { items: (rows?.results ?? []) as unknown as TrashListItem[], total: Number(count?.results[0]?.n ?? 0) };
}

/** Deletes trash items for good, a chunk of rows per statement (a deal may hold thousands of activities). */
async function deleteTrash(db: D1, where: string, ...binds: unknown[]): Promise<number> {
  for (;;) {
    const res = await db
      .prepare(
        `delete from trash_rows where rowid in (select r.rowid from trash_rows r join trash_items t on t.id = r.trash_id where ${where} limit 2000)`,
      )
      .bind(...binds)
      .run();
    if ((res.meta.changes ?? 0) === 0) break;
  }
  let deleted = 0;
  for (;;) {
    const res = await db
      .prepare(`delete from trash_items where rowid in (select t.rowid from trash_items t where ${where} limit ${CHUNK})`)
      .bind(...binds)
      .run();
    const n = res.meta.changes ?? 0;
    deleted += n;
    if (n === 0) break;
  }
  return deleted;
}

/** "Empty trash": every item of the user, or only `trashIds` among them; returns how many went. */
export async function emptyTrash(db: D1, userId: string, trashIds?: readonly string[]): Promise<number> {
  if (trashIds)
    return trashIds.length
      ? deleteTrash(db, "t.user_id = ? and t.id in (select value from json_each(?))", userId, JSON.stringify([...new Set(trashIds)]))
      : 0;
  return deleteTrash(db, "t.user_id = ?", userId);
}

/** The cron's purge: every item deleted more than TRASH_DAYS before `now`, whoever's. */
export async function purgeExpiredTrash(db: D1, now = Date.now()): Promise<number> {
  return deleteTrash(db, "t.deleted_at <= ?", now - TRASH_MS);
}
