import { and, eq, sql } from "drizzle-orm";
import * as z from "zod";
import { CONTACT_SOURCES, PROPERTY_TYPES } from "~/db/enums";
import { teamRouting, teamRoutingRules, type RouteTargetJson, type TeamRouting } from "~/db/schema";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import { auditPerson, auditWhere, teamSettingsAudit } from "~/modules/audit/audit.server";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { fieldErrors } from "~/lib/schema-fields";
import type { UserId } from "~/modules/auth/session.server";
import { conditionsLabel, normalArea, ROUTING_MESSAGES, targetLabel, WEEKDAYS } from "./routing";
import { routingSetup } from "./routing.server";
import { canManage, isMemberSql, listMembers, MANAGER_ROLES, type Membership } from "./team.server";

// The routing page's reads and writes (ADR 0078): rules (add, edit, delete, move up/down) and the team's routing
// settings. Owner and admins only; every save re-checks in its own batch that the actor still manages the team, and
// writes one audit row ("team.settings_changed") in the same batch.

export type RoutingResult =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 403 | 404 | 409; error: string; fieldErrors?: Record<string, string> };

const MAX_RULES = 50;

const refused = (error: z.ZodError): RoutingResult => ({ ok: false, status: 400, error: error.issues[0]!.message, fieldErrors: fieldErrors(error) });
const forbidden: RoutingResult = { ok: false, status: 403, error: ROUTING_MESSAGES.managersOnly };
const gone: RoutingResult = { ok: false, status: 409, error: ROUTING_MESSAGES.managersOnly };

const dollarsField = z
  .string()
  .trim()
  .regex(/^(\d{1,10})?$/, ROUTING_MESSAGES.price)
  .transform((v) => (v ? Number(v) * 100 : null));

/** A target from the form: "agent" with one member, "group" with two or more, or "pond"; members checked against the team. */
function targetSchema(members: ReadonlySet<string>) {
  return z
    .object({ kind: z.enum(["agent", "group", "pond"], { error: ROUTING_MESSAGES.target }), agent: z.string(), group: z.array(z.string()) })
    .superRefine((t, ctx) => {
      if (t.kind === "agent" && !members.has(t.agent)) ctx.addIssue({ code: "custom", path: ["agent"], message: ROUTING_MESSAGES.agent });
      if (t.kind === "group" && (new Set(t.group).size < 2 || t.group.some((id) => !members.has(id))))
        ctx.addIssue({ code: "custom", path: ["group"], message: ROUTING_MESSAGES.group });
    })
    .transform((t): RouteTargetJson => ({ kind: t.kind, agents: t.kind === "agent" ? [t.agent] : t.kind === "group" ? [...new Set(t.group)] : [] }));
}

const strings = (form: FormData, name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");
const text = (form: FormData, name: string) => String(form.get(name) ?? "");

function ruleSchema(members: ReadonlySet<string>) {
  return z
    .object({
      sources: z.array(z.enum(CONTACT_SOURCES, { error: ROUTING_MESSAGES.source })),
      minPrice: dollarsField,
      maxPrice: dollarsField,
      areas: z
        .string()
        .transform((v) => [...new Set(v.split(",").map(normalArea).filter(Boolean))])
        .refine((a) => a.length <= 20 && a.every((x) => x.length <= 60), ROUTING_MESSAGES.area),
      language: z.string().trim().max(40, ROUTING_MESSAGES.language),
      propertyType: z.union([z.enum(PROPERTY_TYPES), z.literal("")], { error: ROUTING_MESSAGES.propertyType }),
      target: targetSchema(members),
    })
    .refine((r) => r.minPrice === null || r.maxPrice === null || r.minPrice <= r.maxPrice, {
      path: ["maxPrice"],
      message: ROUTING_MESSAGES.priceOrder,
    });
}

const stillManages = (team: Membership, actorId: string) => isMemberSql(team.teamId, actorId, MANAGER_ROLES);

async function memberIds(context: RequestContext, teamId: string) {
  return new Set((await listMembers(context, teamId)).map((m) => m.userId));
}

/** Adds a rule at the end, or changes rule `form.rule`. */
export async function saveRule(context: RequestContext, request: Request, actor: { id: UserId }, team: Membership, form: FormData, at = new Date()) {
  if (!canManage(team)) return forbidden;
  const ruleId = text(form, "rule");
  const parsed = ruleSchema(await memberIds(context, team.teamId)).safeParse({
    sources: strings(form, "sources"),
    minPrice: text(form, "minPrice"),
    maxPrice: text(form, "maxPrice"),
    areas: text(form, "areas"),
    language: text(form, "language"),
    propertyType: text(form, "propertyType"),
    target: { kind: text(form, "target"), agent: text(form, "agent"), group: strings(form, "group") },
  });
  if (!parsed.success) return refused(parsed.error);
  const r = parsed.data;
  const values = {
    sources: r.sources,
    minPriceCents: r.minPrice,
    maxPriceCents: r.maxPrice,
    areas: r.areas,
    language: r.language || null,
    propertyType: r.propertyType || null,
    target: r.target,
    updatedAt: at,
  };
  const { rules } = await routingSetup(context.db, team.teamId);
  const before = ruleId ? rules.find((x) => x.id === ruleId) : undefined;
  if (ruleId && !before) return { ok: false, status: 404, error: ROUTING_MESSAGES.notFound } satisfies RoutingResult;
  if (!ruleId && rules.length >= MAX_RULES) return { ok: false, status: 400, error: ROUTING_MESSAGES.rules } satisfies RoutingResult;
  const names = new Map((await listMembers(context, team.teamId)).map((m) => [m.userId, m.name]));
  const describe = (v: typeof values) => `${conditionsLabel(v)} → ${targetLabel(v.target, names)}`;
  const db = context.db;
  const write = before
    ? db
        .update(teamRoutingRules)
        .set(values)
        .where(and(eq(teamRoutingRules.id, before.id), eq(teamRoutingRules.teamId, team.teamId)))
    : db.insert(teamRoutingRules).values({
        id: newId(),
        teamId: team.teamId,
        position: sql`(select coalesce(max(${teamRoutingRules.position}), 0) + 1 from ${teamRoutingRules} where ${teamRoutingRules.teamId} = ${team.teamId})`,
        createdAt: at,
        ...values,
      });
  const change = { setting: "routing rule", from: before ? describe(before) : "none", to: describe(values) };
  const audit = await auditFor(context, request, actor, team);
  const done = await guardedBatch(() => db.batch([requireInBatch(db, stillManages(team, actor.id)), write, audit([change], at)]));
  if (!done.ok) return gone;
  return { ok: true, message: before ? "Rule saved" : "Rule added" } satisfies RoutingResult;
}

/** The save's audit row, for its batch (the actor's name read first: a query builder must not be awaited into it). */
async function auditFor(context: RequestContext, request: Request, actor: { id: UserId }, team: Membership) {
  const me = await auditPerson(context.db, actor.id);
  return (changes: { setting: string; from: string; to: string }[], at: Date) =>
    teamSettingsAudit(context, { teamId: team.teamId, actor: me, changes, where: auditWhere(request), at });
}

/** Deletes a rule (the others keep their order). */
export async function deleteRule(
  context: RequestContext,
  request: Request,
  actor: { id: UserId },
  team: Membership,
  ruleId: string,
  at = new Date(),
) {
  if (!canManage(team)) return forbidden;
  const { rules } = await routingSetup(context.db, team.teamId);
  const rule = rules.find((r) => r.id === ruleId);
  if (!rule) return { ok: false, status: 404, error: ROUTING_MESSAGES.notFound } satisfies RoutingResult;
  const db = context.db;
  const change = { setting: "routing rule", from: conditionsLabel(rule), to: "deleted" };
  const audit = await auditFor(context, request, actor, team);
  const done = await guardedBatch(() =>
    db.batch([
      requireInBatch(db, stillManages(team, actor.id)),
      db.delete(teamRoutingRules).where(and(eq(teamRoutingRules.id, rule.id), eq(teamRoutingRules.teamId, team.teamId))),
      audit([change], at),
    ]),
  );
  return done.ok ? ({ ok: true, message: "Rule deleted" } satisfies RoutingResult) : gone;
}

/** Swaps a rule with the one above (`up`) or below it: the order is what decides which rule a lead meets first. */
export async function moveRule(
  context: RequestContext,
  request: Request,
  actor: { id: UserId },
  team: Membership,
  ruleId: string,
  up: boolean,
  at = new Date(),
) {
  if (!canManage(team)) return forbidden;
  const { rules } = await routingSetup(context.db, team.teamId);
  const index = rules.findIndex((r) => r.id === ruleId);
  if (index < 0) return { ok: false, status: 404, error: ROUTING_MESSAGES.notFound } satisfies RoutingResult;
  const other = rules[up ? index - 1 : index + 1];
  if (!other) return { ok: true, message: "The rule is already there" } satisfies RoutingResult;
  const rule = rules[index]!;
  const db = context.db;
  const place = (id: string, position: number, was: number) =>
    db
      .update(teamRoutingRules)
      .set({ position, updatedAt: at })
      .where(and(eq(teamRoutingRules.id, id), eq(teamRoutingRules.teamId, team.teamId), eq(teamRoutingRules.position, was)));
  // Positions are 1..n in order; a tie (never written, but harmless) is broken by taking the index.
  const [a, b] = [index + 1, (up ? index - 1 : index + 1) + 1];
  const change = { setting: "routing rule order", from: `rule ${a}: ${conditionsLabel(rule)}`, to: `rule ${b}` };
  const audit = await auditFor(context, request, actor, team);
  const done = await guardedBatch(() =>
    db.batch([
      requireInBatch(db, stillManages(team, actor.id)),
      ...rules.map((r, i) => (r === rule ? place(r.id, b, r.position) : r === other ? place(r.id, a, r.position) : place(r.id, i + 1, r.position))),
      audit([change], at),
    ]),
  );
  return done.ok ? ({ ok: true, message: up ? "Rule moved up" : "Rule moved down" } satisfies RoutingResult) : gone;
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

function settingsSchema(members: ReadonlySet<string>) {
  const optionalInt = (min: number, max: number, message: string) =>
    z
      .string()
      .trim()
      .transform((v, ctx) => {
        if (v === "") return null;
        const n = Number(v);
        if (!/^\d+$/.test(v) || n < min || n > max) {
          ctx.addIssue({ code: "custom", message });
          return z.NEVER;
        }
        return n;
      });
  return z
    .object({
      hoursOn: z.boolean(),
      days: z.array(z.coerce.number().int().min(0).max(6)),
      from: z.string(),
      to: z.string(),
      afterHours: targetSchema(members),
      dailyCap: optionalInt(1, 500, ROUTING_MESSAGES.cap),
      reassignMinutes: optionalInt(5, 1440, ROUTING_MESSAGES.reassignMinutes),
      reassignMax: optionalInt(1, 10, ROUTING_MESSAGES.reassignMax),
    })
    .superRefine((s, ctx) => {
      if (!s.hoursOn) return;
      if (s.days.length === 0) ctx.addIssue({ code: "custom", path: ["days"], message: ROUTING_MESSAGES.days });
      if (!HHMM.test(s.from) || !HHMM.test(s.to) || s.from >= s.to) ctx.addIssue({ code: "custom", path: ["to"], message: ROUTING_MESSAGES.hours });
    });
}

const describeSettings = (
  s: Pick<TeamRouting, "businessHours" | "afterHours" | "dailyCap" | "reassignMinutes" | "reassignMax"> | null,
  names: ReadonlyMap<string, string>,
) => ({
  "business hours": s?.businessHours
    ? `${s.businessHours.days.map((d) => WEEKDAYS[d]!.slice(0, 3)).join(", ")} ${s.businessHours.from}–${s.businessHours.to}`
    : "always",
  "after-hours target": s?.afterHours ? targetLabel(s.afterHours, names) : "none",
  "daily cap": s?.dailyCap ? `${s.dailyCap} leads` : "none",
  "auto-reassign": s?.reassignMinutes ? `after ${s.reassignMinutes} minutes, at most ${s.reassignMax} times` : "off",
});

/** Saves business hours with the after-hours target, the daily cap and auto-reassign. */
export async function saveRoutingSettings(
  context: RequestContext,
  request: Request,
  actor: { id: UserId },
  team: Membership,
  form: FormData,
  at = new Date(),
) {
  if (!canManage(team)) return forbidden;
  const members = await listMembers(context, team.teamId);
  const parsed = settingsSchema(new Set(members.map((m) => m.userId))).safeParse({
    hoursOn: form.get("hoursOn") === "on",
    days: strings(form, "days"),
    from: text(form, "from"),
    to: text(form, "to"),
    afterHours: { kind: text(form, "afterHours") || "pond", agent: text(form, "afterHoursAgent"), group: strings(form, "afterHoursGroup") },
    dailyCap: text(form, "dailyCap"),
    reassignMinutes: text(form, "reassignMinutes"),
    reassignMax: text(form, "reassignMax"),
  });
  if (!parsed.success) return refused(parsed.error);
  const s = parsed.data;
  const values = {
    businessHours: s.hoursOn ? { days: [...new Set(s.days)].sort(), from: s.from, to: s.to } : null,
    afterHours: s.hoursOn ? s.afterHours : null,
    dailyCap: s.dailyCap,
    reassignMinutes: s.reassignMinutes,
    reassignMax: s.reassignMinutes === null ? 0 : (s.reassignMax ?? 1),
    updatedAt: at,
  };
  const { settings } = await routingSetup(context.db, team.teamId);
  const names = new Map(members.map((m) => [m.userId, m.name]));
  const [was, now] = [describeSettings(settings, names), describeSettings(values, names)];
  const changes = Object.entries(now)
    .filter(([k, v]) => was[k as keyof typeof was] !== v)
    .map(([setting, to]) => ({ setting, from: was[setting as keyof typeof was], to }));
  const db = context.db;
  const audit = await auditFor(context, request, actor, team);
  const done = await guardedBatch(() =>
    db.batch([
      requireInBatch(db, stillManages(team, actor.id)),
      db
        .insert(teamRouting)
        .values({ teamId: team.teamId, ...values })
        .onConflictDoUpdate({ target: teamRouting.teamId, set: values }),
      ...(changes.length > 0 ? [audit(changes, at)] : []),
    ]),
  );
  return done.ok ? ({ ok: true, message: "Routing settings saved" } satisfies RoutingResult) : gone;
}

/** The routing page: rules in order with their words, the settings, the members to choose from. */
export async function loadRouting(context: RequestContext, team: Membership) {
  const [{ settings, rules, timeZone }, members] = await Promise.all([routingSetup(context.db, team.teamId), listMembers(context, team.teamId)]);
  const names = new Map(members.map((m) => [m.userId, m.name]));
  return {
    timeZone,
    members: members.map((m) => ({ userId: m.userId, name: m.name })),
    rules: rules.map((r, i) => ({
      id: r.id,
      number: i + 1,
      conditions: conditionsLabel(r),
      target: targetLabel(r.target, names),
      form: {
        sources: r.sources,
        minPrice: r.minPriceCents === null ? "" : String(r.minPriceCents / 100),
        maxPrice: r.maxPriceCents === null ? "" : String(r.maxPriceCents / 100),
        areas: r.areas.join(", "),
        language: r.language ?? "",
        propertyType: r.propertyType ?? "",
        target: r.target,
      },
    })),
    settings: {
      businessHours: settings?.businessHours ?? null,
      afterHours: settings?.afterHours ?? null,
      dailyCap: settings?.dailyCap ?? null,
      reassignMinutes: settings?.reassignMinutes ?? null,
      reassignMax: settings?.reassignMax ?? 0,
    },
  };
}
export type RoutingPage = Awaited<ReturnType<typeof loadRouting>>;
