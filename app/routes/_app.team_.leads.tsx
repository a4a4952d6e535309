import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { LEAD_MODES } from "~/db/enums";
import { readForm } from "~/lib/body.server";
import { formatDateTime, formatTime } from "~/lib/format";
import { dispatchIntent } from "~/lib/intents.server";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { redirectWithToast } from "~/lib/toast.server";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import { requireTeamMember } from "~/modules/team/guard.server";
import { LEAD_IMPORT_MAX_BYTES, LEAD_MODE_LABELS } from "~/modules/team/leads";
import { addLead, claimLead, importLeads, saveLeadSettings, setAvailability, type LeadResult } from "~/modules/team/leads.server";
import { assignLeadAsManager, leadDeps, loadLeadsPage, rotateTeamIntakeAddress } from "~/modules/team/leads-page.server";
import { setLeadForm } from "~/modules/team/lead-form.server";
import { AddLeads } from "~/modules/team/components/AddLeads";
import { AssignForm, AvailabilitySection, LeadError, LeadsHeader } from "~/modules/team/components/LeadControls";
import { LeadFormSettings } from "~/modules/team/components/LeadFormSettings";

export const meta: MetaFunction = () => [{ title: "Team leads — Porchlight" }];
export const headers = serverTimingHeaders;

// Lead distribution (ADR 0038): the team's new leads, the pond, claims, assignments and the settings. Team
// members only (404 for anyone else); adding and assigning are the lead desk's (owner, admins and ISAs, ADR 0080), the
// settings the owner's and admins'.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const started = Date.now();
  const { user, team } = await requireTeamMember(request, context);
  return data(await loadLeadsPage(context, request, user, team), { headers: serverTiming("team-leads", started) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  // A CSV file of leads is the largest body this page takes (with room for the multipart framing).
  const form = await readForm(request, { maxBytes: LEAD_IMPORT_MAX_BYTES + 64_000 });
  const intent = String(form.get("intent") ?? "");
  const lead = String(form.get("lead") ?? "");
  const deps = leadDeps(context, request);
  const answer = async (pending: Promise<LeadResult>) => {
    const result = await pending;
    if (result.ok) return redirectWithToast(context, "/team/leads", { title: result.message, description: result.detail, variant: "success" });
    return data({ ok: false as const, intent, lead, error: result.error, fieldErrors: result.fieldErrors ?? {} }, { status: result.status });
  };
  return dispatchIntent(form, {
    add: () => answer(addLead(context, team, deps, user.id, form)),
    claim: () => answer(claimLead(context, team, deps, user.id, lead)),
    assign: () => answer(assignLeadAsManager(context, request, user, team, lead, String(form.get("agent") ?? ""))),
    import: () => answer(importLeads(context, team, deps, user.id, form.get("file"))),
    settings: () => answer(saveLeadSettings(context, request, user, team, form)),
    "form-on": () => answer(setLeadForm(context, request, user, team, true)),
    "form-off": () => answer(setLeadForm(context, request, user, team, false)),
    "intake-rotate": () => answer(rotateTeamIntakeAddress(context, team)),
    availability: () => answer(setAvailability(context, team, user.id, String(form.get("member") ?? user.id), form.get("available") === "true")),
  });
}

/**
 * A refused claim or assignment (409: someone was quicker, a window passed) reloads the lists, so the lead no longer
 * shows a Claim button that cannot work. Other refusals (400: a form to fix) keep the page as it is.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
export default function TeamLeadsPage() {
  const loaded = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const me = loaded.members.find((m) => m.userId === loaded.me);
  const errorFor = (intent: string, lead?: string) =>
    failed && !failed.ok && failed.intent === intent && (lead === undefined || ("lead" in failed && failed.lead === lead)) ? failed : null;
  // An ISA hands leads to those who sell (ADR 0080); the owner and admins may give one to anyone.
  const agents = loaded.members
    .filter((m) => !loaded.isa || m.role !== "isa")
    .map((m) => [m.userId, m.userId === loaded.me ? `${m.name} (you)` : m.name] as const);
  return (
    <>
      <LeadsHeader teamName={loaded.teamName} mode={loaded.mode} />
      {loaded.isa ? (
        <p className="mb-4 text-sm text-stone-700 dark:text-stone-300">
          You are the team's inside sales agent: call the leads waiting here or claim them to work them in your Contacts, then hand each one to an
          agent. Your calls and notes go with it.
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="leads-waiting" className={`${card} lg:col-span-2`}>
          <h2 id="leads-waiting" className="font-semibold">
            Waiting for an agent
          </h2>
          {/* A claim or assignment refused for a lead that has since left these lists (someone was quicker). */}
          <LeadError
            error={
              failed &&
              !failed.ok &&
              "lead" in failed &&
              failed.lead &&
              !loaded.waiting.some((l) => l.id === failed.lead) &&
              (failed.intent === "claim" || !loaded.assigned.some((l) => l.id === failed.lead))
                ? failed
                : null
            }
          />
          {loaded.waiting.length === 0 ? (
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No lead is waiting.</p>
          ) : (
            <ul aria-label="Waiting leads" className="mt-2 flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
              {loaded.waiting.map((lead) => {
                const error = errorFor("claim", lead.id) ?? errorFor("assign", lead.id);
                return (
                  <li key={lead.id} aria-label={lead.name} className="flex flex-col gap-2 py-3">
                    <div className="min-w-0 [overflow-wrap:anywhere]">
                      <p className="font-medium">{lead.name}</p>
                      <p className="text-sm text-stone-600 dark:text-stone-400">
                        {SOURCE_LABELS[lead.source]} · added {formatDateTime(lead.createdAt, loaded.prefs)}
                        {lead.state === "offered" && lead.offeredUntil
                          ? ` · claim by ${formatTime(lead.offeredUntil, loaded.prefs)}`
                          : ` · ${lead.route ?? "in the pond"}`}
                      </p>
                      {lead.email || lead.phone ? <p className="text-sm">{[lead.phone, lead.email].filter(Boolean).join(" · ")}</p> : null}
                      {lead.message ? <p className="mt-1 whitespace-pre-line break-words text-sm">{lead.message}</p> : null}
                    </div>
                    <div className="grid grid-cols-1 gap-2 sm:flex sm:flex-wrap sm:items-end">
                      {me?.available ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="claim" />
                          <input type="hidden" name="lead" value={lead.id} />
                          <Button type="submit" disabled={busy} aria-label={`Claim ${lead.name}`}>
                            Claim
                          </Button>
                        </Form>
                      ) : null}
                      {loaded.desk ? (
                        <AssignForm leadId={lead.id} label={`Assign ${lead.name} to`} verb="Assign" options={agents} busy={busy} />
                      ) : null}
                    </div>
                    <LeadError error={error} />
                  </li>
                );
              })}
            </ul>
          )}
        </section>

        <section aria-labelledby="leads-assigned" className={`${card} lg:col-span-2`}>
          <h2 id="leads-assigned" className="font-semibold">
            Assigned in the last 30 days
          </h2>
          {loaded.assigned.length === 0 ? (
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No lead has been assigned yet.</p>
          ) : (
            <ul aria-label="Assigned leads" className="mt-2 flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
              {loaded.assigned.map((lead) => {
                const error = errorFor("assign", lead.id);
                return (
                  <li key={lead.id} aria-label={lead.name} className="flex flex-col gap-2 py-3">
                    <div className="min-w-0 [overflow-wrap:anywhere]">
                      <p className="font-medium">
                        {lead.name} → {lead.agentId === loaded.me ? "you" : lead.agentName}
                        {lead.heldByName ? ` (now with ${lead.heldByName})` : ""}
                      </p>
                      <p className="text-sm text-stone-600 dark:text-stone-400">
                        {lead.how ? `${lead.how[0]!.toUpperCase()}${lead.how.slice(1)}` : "Assigned"} ·{" "}
                        {formatDateTime(lead.assignedAt, loaded.prefs)} · {lead.answered ? "answered" : "not answered yet"}
                      </p>
                    </div>
                    {loaded.manages && !lead.answered ? (
                      <AssignForm
                        leadId={lead.id}
                        label={`Reassign ${lead.name} to`}
                        verb="Reassign"
                        options={agents.filter(([id]) => id !== lead.holderId)}
                        busy={busy}
                      />
                    ) : loaded.isa && lead.holderId === loaded.me ? (
                      <AssignForm leadId={lead.id} label={`Hand ${lead.name} to`} verb="Hand to agent" options={agents} busy={busy} />
                    ) : null}
                    <LeadError error={error} />
                  </li>
                );
              })}
            </ul>
          )}
        </section>

        <AvailabilitySection members={loaded.members} me={loaded.me} manages={loaded.manages} busy={busy} className={card} />

        {loaded.manages ? (
          <>
            <section aria-labelledby="leads-settings" className={card}>
              <h2 id="leads-settings" className="font-semibold">
                How new leads are distributed
              </h2>
              <Form method="post" className="mt-2 flex flex-col gap-3">
                <input type="hidden" name="intent" value="settings" />
                <SelectField
                  label="Distribution"
                  name="mode"
                  options={LEAD_MODES.map((m) => [m, LEAD_MODE_LABELS[m]] as const)}
                  defaultValue={loaded.mode}
                  error={errorFor("settings")?.fieldErrors.mode}
                />
                <Field
                  label="Claim window (minutes)"
                  name="claimWindowMinutes"
                  inputMode="numeric"
                  defaultValue={String(loaded.claimWindowMinutes)}
                  hint="For first to claim: how long every available member has before round robin takes the lead."
                  error={errorFor("settings")?.fieldErrors.claimWindowMinutes}
                />
                <Button type="submit" disabled={busy}>
                  Save settings
                </Button>
              </Form>
            </section>

            <LeadFormSettings leadFormUrl={loaded.leadFormUrl} intakeAddress={loaded.intakeAddress} busy={busy} className={card} />
          </>
        ) : null}
        {loaded.desk ? <AddLeads errorFor={errorFor} busy={busy} className={card} /> : null}
      </div>
    </>
  );
}
