import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import {
  D1_LIMIT_EXEMPTIONS,
  D1_LIMITS,
  D1LimitError,
  inD1Step,
  type D1InvocationReport,
  d1MeterOf,
  limitD1,
  takeD1LimitCrossings,
} from "~/lib/d1-limits";
import type { Env } from "~/lib/env.server";
import { agentWithData } from "../factories/agent-data";
import { signInAs } from "../factories/browser";

// The limits harness (ADR 0055): each invocation's D1 queries counted, statements sized, and what production refuses
// refused here too.

const testEnv = env as unknown as Env;
const enforced = (label = "test") => limitD1({ ...testEnv, D1_LIMITS: "enforce" }, label);
const meter = (e: Env) => {
  const m = d1MeterOf(e.DB);
  if (!m) throw new Error("the harness is off");
  return m;
};
/** What one dashboard request may cost in D1 queries: a fixed handful, whatever the size of the book. */
const DASHBOARD_QUERIES = 40;
const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/** Runs `act`, expects it to be refused for `limit`, and takes the crossing off the suite's after-each check. */
async function refused(limit: D1LimitError["limit"], act: () => Promise<unknown> | unknown) {
  let caught: unknown = null;
  try {
    await act();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(D1LimitError);
  const error = caught as D1LimitError;
  expect(error.limit).toBe(limit);
  expect(error.figure).toBe(D1_LIMITS[limit]);
  expect(takeD1LimitCrossings()).toEqual([error]);
  return error;
}

describe("D1 limits harness", () => {
  it("is on in the worker suite, and counts each invocation's queries on its own meter", async () => {
    expect((env as unknown as { D1_LIMITS?: string }).D1_LIMITS).toBe("enforce");
    const first = enforced();
    await first.DB.prepare("select 1").first();
    await first.DB.prepare("select ?").bind(2).all();
    await first.DB.prepare("select 3").raw();
    await first.DB.prepare("select 4").run();
    expect(meter(first).queries).toBe(4);
    // A new invocation starts from zero; the earlier one keeps its count.
    const second = enforced();
    await second.DB.prepare("select 1").first("1");
    expect(meter(second).queries).toBe(1);
    expect(meter(first).queries).toBe(4);
    // The restore drill's database counts against the same invocation.
    await second.DB_RESTORE_DRILL.prepare("select 1").first();
    expect(meter(second).queries).toBe(2);
  });

  it("hands the env on untouched when the switch is off", () => {
    const off = limitD1({ ...testEnv, D1_LIMITS: undefined }, "off");
    expect(off.DB).toBe(testEnv.DB);
    expect(d1MeterOf(off.DB)).toBeNull();
  });

  it("counts a batch per statement, and a session's statements with its database's", async () => {
    const e = enforced();
    const results = await e.DB.batch([1, 2, 3, 4, 5].map((n) => e.DB.prepare("select ? as n").bind(n)));
    expect(results.map((r) => r.results[0])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }]);
    expect(meter(e).queries).toBe(5);
    const session = e.DB.withSession("first-primary");
    await session.prepare("select 1").first();
    await session.batch([session.prepare("select 1"), session.prepare("select 2")]);
    expect(meter(e).queries).toBe(8);
  });

  it("records each statement's size, parameters and time in the step it ran in", async () => {
    const e = enforced("scheduled test");
    const m = meter(e);
    await e.DB.prepare(`select ${placeholders(100)}`)
      .bind(...Array.from({ length: 100 }, (_, i) => i))
      .all();
    m.step("cron:second");
    await e.DB.prepare("select 1").first();
    const report = m.report();
    expect(report.queries).toBe(2);
    expect(report.steps.map((s) => [s.step, s.queries, s.maxParams])).toEqual([
      ["scheduled test", 1, 100],
      ["cron:second", 1, 0],
    ]);
    expect(report.steps[0]!.maxSqlBytes).toBe(`select ${placeholders(100)}`.length);
    expect(report.steps[0]!.longestMs).toBeGreaterThanOrEqual(0);
    expect(report.steps[0]!.longestSql).toMatch(/^select \?, \?/);
  });

  it("adds the rows D1 read and wrote to the step, whichever method ran the statement, as D1's own meta says", async () => {
    // A table of this test's own, so no other file's rows change what is read.
    const table = `rows_probe_${crypto.randomUUID().replaceAll("-", "")}`;
    await testEnv.DB.prepare(`create table ${table} (id integer primary key, v text)`).run();
    try {
      const e = enforced("rows test");
      const m = meter(e);
      const step = () => m.steps.at(-1)!;
      /** The rows `act` added to the current step: [read, written]. */
      const rowsOf = async (act: () => Promise<unknown>) => {
        const [read, written] = [step().rowsRead, step().rowsWritten];
        await act();
        return [step().rowsRead - read, step().rowsWritten - written];
      };
      /** What D1 itself reports for the same statement, run on the binding the harness does not wrap. */
      const d1Says = async (sql: string, ...params: unknown[]) => {
        const { meta } = await testEnv.DB.prepare(sql)
          .bind(...params)
          .all();
        return [meta.rows_read, meta.rows_written];
      };
      const inserted = await rowsOf(() => e.DB.prepare(`insert into ${table} (id, v) values (1, 'a'), (2, 'b'), (3, 'c')`).run());
      expect(inserted[1]).toBe(3);
      const readAll = `select id, v from ${table}`;
      const expected = await d1Says(readAll);
      expect(expected[0]).toBeGreaterThanOrEqual(3);
      // raw() and first() drop D1's meta from what they return: the harness still counts their rows.
      expect(await rowsOf(() => e.DB.prepare(readAll).raw())).toEqual(expected);
      expect(await rowsOf(() => e.DB.prepare(readAll).first())).toEqual(expected);
      expect(await rowsOf(() => e.DB.prepare(readAll).first("v"))).toEqual(expected);
      expect(await rowsOf(() => e.DB.prepare(readAll).all())).toEqual(expected);
      const byId = `select v from ${table} where id = ?`;
      expect(await rowsOf(() => e.DB.prepare(byId).bind(2).first("v"))).toEqual(await d1Says(byId, 2));
      // A batch adds each statement's rows; a session's statements count with its database's.
      const batched = await rowsOf(() => e.DB.batch([e.DB.prepare(`update ${table} set v = 'z' where id >= ?`).bind(2), e.DB.prepare(readAll)]));
      expect(batched[1]).toBe(2);
      expect(batched[0]).toBeGreaterThanOrEqual(expected[0]! + 2);
      const session = e.DB.withSession("first-primary");
      expect(await rowsOf(() => session.prepare(readAll).raw())).toEqual(expected);
      // The step's rows and the invocation's totals in the report.
      const report = m.report();
      expect(report.steps[0]!.step).toBe("rows test");
      expect(report.rowsWritten).toBe(5);
      expect(report.rowsRead).toBe(report.steps.reduce((n, s) => n + s.rowsRead, 0));
      // What the statements answered is D1's own answer, unchanged.
      expect(await e.DB.prepare(readAll).raw()).toEqual([
        [1, "a"],
        [2, "z"],
        [3, "z"],
      ]);
      expect(await e.DB.prepare(byId).bind(1).first()).toEqual({ v: "a" });
    } finally {
      await testEnv.DB.prepare(`drop table ${table}`).run();
    }
  });

  it("allows 100 bound parameters and refuses the 101st, naming the limit and the statement", async () => {
    const e = enforced();
    const ok = await e.DB.prepare(`select ${placeholders(100)}`)
      .bind(...Array.from({ length: 100 }, (_, i) => i))
      .raw();
    expect(ok[0]).toHaveLength(100);
    const sql = `select ${placeholders(101)}`;
    const error = await refused("boundParameters", () => e.DB.prepare(sql).bind(...Array.from({ length: 101 }, (_, i) => i)));
    expect(error.actual).toBe(101);
    expect(error.message).toContain("boundParameters: production allows 100, this statement has 101");
    expect(error.message).toContain(sql.slice(0, 200));
    expect(error.message).not.toContain(sql.slice(0, 201));
  });

  it("refuses a statement over 100 KB, counting UTF-8 bytes", async () => {
    const e = enforced();
    const at = (bytes: number) => `select 1 /*${"x".repeat(bytes - "select 1 /**/".length)}*/`;
    await e.DB.prepare(at(100_000)).first();
    const big = await refused("statementBytes", () => e.DB.prepare(at(100_001)));
    expect(big.actual).toBe(100_001);
    // 34,000 characters of three bytes each: 102,000 bytes though only 34,000 UTF-16 units.
    const wide = await refused("statementBytes", () => e.DB.prepare(`select '${"€".repeat(34_000)}'`));
    expect(wide.actual).toBe(102_009);
    const session = e.DB.withSession();
    await refused("statementBytes", () => session.prepare(at(100_001)));
  });

  it("refuses the 1,001st query of an invocation", async () => {
    const e = enforced();
    await e.DB.batch(Array.from({ length: 999 }, () => e.DB.prepare("select 1")));
    await e.DB.prepare("select 1").first();
    expect(meter(e).queries).toBe(1_000);
    const error = await refused("queriesPerInvocation", () => e.DB.prepare("select 'one too many'").first());
    expect(error.actual).toBe(1_001);
    expect(error.message).toContain("production allows 1000, this invocation reached 1001");
    expect(error.message).toContain("select 'one too many'");
  });

  it("exempts no step from the query count: an agent's restore, the last job to become durable, is held to it too", async () => {
    expect([...D1_LIMIT_EXEMPTIONS.keys()]).toEqual([]);
    const e = enforced("POST /operations");
    const m = meter(e);
    const thousandAndOne = () => e.DB.batch(Array.from({ length: 1_001 }, () => e.DB.prepare("select 1")));
    await refused("queriesPerInvocation", () => inD1Step(e.DB, "agent-restore", thousandAndOne));
    // The step's queries are reported under its name, and count against the invocation.
    expect(m.report().steps.map((s) => [s.step, s.queries])).toEqual([["agent-restore", 1_001]]);
    expect(m.queries).toBe(1_001);
  });

  it("measures without refusing in measure mode", async () => {
    const e = limitD1({ ...testEnv, D1_LIMITS: "measure" }, "bench");
    // (Local D1 itself refuses to run it: SQLite's own variable limit here is also 100.)
    e.DB.prepare(`select ${placeholders(101)}`).bind(...Array.from({ length: 101 }, (_, i) => i));
    expect(meter(e).report().steps[0]!.maxParams).toBe(101);
    expect(takeD1LimitCrossings()).toEqual([]);
  });

  it("the Worker meters each request itself: a signed-in agent's dashboard stays well under the limit", async () => {
    const { user } = await agentWithData("Limits");
    const browser = await signInAs(user);
    // In measure mode the Worker logs each invocation's report as one JSON line (what the bench reads).
    const log = vi.spyOn(console, "log");
    let lines: unknown[][];
    try {
      const response = await browser.using({ ...testEnv, D1_LIMITS: "measure" }).get("/dashboard");
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("Limits Buyer");
      lines = [...log.mock.calls];
    } finally {
      log.mockRestore();
    }
    const reports = lines
      .map(([line]) => (typeof line === "string" && line.startsWith('{"event":"d1_limits"') ? (JSON.parse(line) as D1InvocationReport) : null))
      .filter((r) => r !== null);
    const dashboard = reports.find((r) => r.invocation === "fetch GET /dashboard");
    expect(dashboard?.queries).toBeGreaterThan(0);
    expect(dashboard?.queries).toBeLessThanOrEqual(DASHBOARD_QUERIES);
    // The rows the dashboard read (what D1 bills), with the agent's own rows among them.
    expect(dashboard?.rowsRead).toBeGreaterThan(0);
    expect(dashboard?.rowsRead).toBe(dashboard?.steps.reduce((n, s) => n + s.rowsRead, 0));
  });
});
