import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// Deleting or re-keying a parent row makes SQLite find its children for each foreign key that points at it; without an
// index leading with the child's column that is a scan of the child table per parent row. An agent restore deleting
// 100,000 contacts scanned team_leads each time (105 s and a billion rows read, past D1's 30 s a query), ADR 0063.

interface ForeignKey {
  tbl: string;
  col: string;
  parent: string;
}

describe("the schema's foreign keys", () => {
  it("each child column leads an index SQLite can use to find a parent's children (partial only where it is not null)", async () => {
    const { results: keys } = await env.DB.prepare(
      `select m.name as tbl, f."from" as col, f."table" as parent
         from sqlite_master m join pragma_foreign_key_list(m.name) f
        where m.type = 'table' and m.name not like 'sqlite_%' and m.name not like '_cf_%' and m.name not like 'd1_%'`,
    ).all<ForeignKey>();
    expect(keys.length).toBeGreaterThanOrEqual(60);
    const missing: string[] = [];
    for (const key of keys) {
      const { results: indexes } = await env.DB.prepare(
        `select l.name, l.partial, m.sql from pragma_index_list(?1) l join pragma_index_info(l.name) i on i.seqno = 0
           left join sqlite_master m on m.type = 'index' and m.name = l.name
          where i.name = ?2`,
      )
        .bind(key.tbl, key.col)
        .all<{ name: string; partial: number; sql: string | null }>();
      const usable = indexes.some((index) => !index.partial || new RegExp(`${key.col}"?\`?\\s+is\\s+not\\s+null`, "i").test(index.sql ?? ""));
      if (!usable) missing.push(`${key.tbl}.${key.col} → ${key.parent}`);
    }
    expect(missing).toEqual([]);
  });
});
