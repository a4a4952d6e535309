import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { CONTACT_SOURCES, LEAD_MODES } from "~/db/enums";
import { readForm } from "~/lib/body.server";
import { formatDateTime, formatTime } from "~/lib/format";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { redirectWithToast } from "~/lib/toast.server";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { requireTeamMember } from "~/modules/team/guard.server";
import { LEAD_IMPORT_MAX_BYTES, LEAD_IMPORT_ROWS, LEAD_MODE_HELP, LEAD_MODE_LABELS } from "~/modules/team/leads";
import { addLead, assignLead, claimLead, importLeads, loadLeads, requestDeps, saveLeadSettings, setAvailability, type LeadResult } from "~/modules/team/leads.server";
import { canManage, listMembers } from "~/modules/team/team.server";
import { leadFormKeyOf, setLeadForm } from "~/modules/team/lead-form.server";
import { leadFormPath } from "~/modules/team/lead-form";
import { appOrigin } from "~/lib/context.server";

export const meta: MetaFunction = () => [{ title: "Team leads — Porchlight" }];
export const headers = serverTimingHeaders;

// Lead distribution (ADR 0038): the team's new leads, the pond, claims, assignments and the settings. Team
// members only (404 for anyone else); adding, assigning and the settings are for the owner and admins.

/** The request's Deps, with the app's address for the e-mails about waiting leads. */
const deps = (context: LoaderFunctionArgs["context"], request: Request) => requestDeps(context, appOrigin(context, request));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const started = Date.now();
  const { user, team } = await requireTeamMember(request, context);
  const manages = canManage(team);
  const [view, prefs, formKey] = await Promise.all([
    loadLeads(context, team, deps(context, request)),
    getDisplayPreferences(context, user.id),
    manages ? leadFormKeyOf(context, team.teamId) : Promise.resolve(null),
  ]);
  return data(
    {
      me: user.id,
      manages,
      teamName: team.teamName,
      prefs,
      // The public lead form's address: for the owner and admins, who hand it out (ADR 0040).
      leadFormUrl: formKey ? `${appOrigin(context, request)}${leadFormPath(formKey)}` : null,
      ...view,
      // Agents see who a waiting lead is and where it came from; its phone and e-mail once it is theirs.
      waiting: view.waiting.map((lead) => (manages ? lead : { ...lead, email: null, phone: null })),
    },
    { headers: serverTiming("team-leads", started) },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  // A CSV file of leads is the largest body this page takes (with room for the multipart framing).
  const form = await readForm(request, { maxBytes: LEAD_IMPORT_MAX_BYTES + 64_000 });
  const intent = String(form.get("intent") ?? "");
  const lead = String(form.get("lead") ?? "");
  let result: LeadResult;
  if (intent === "add") result = await addLead(context, team, deps(context, request), user.id, form);
  else if (intent === "claim") result = await claimLead(context, team, deps(context, request), user.id, lead);
  else if (intent === "assign") {
    const me = (await listMembers(context, team.teamId)).find((m) => m.userId === user.id);
    result = await assignLead(context, team, deps(context, request), { id: user.id, name: me?.name ?? user.email }, lead, String(form.get("agent") ?? ""));
  } else if (intent === "import") result = await importLeads(context, team, deps(context, request), user.id, form.get("file"));
  else if (intent === "settings") result = await saveLeadSettings(context, team, form);
  else if (intent === "form-on" || intent === "form-off") result = await setLeadForm(context, team, intent === "form-on");
  else if (intent === "availability") result = await setAvailability(context, team, user.id, String(form.get("member") ?? user.id), form.get("available") === "true");
  else return data({ ok: false as const, intent, error: "Unknown action.", fieldErrors: {} as Record<string, string> }, { status: 400 });
  if (result.ok) return redirectWithToast(context, "/team/leads", { title: result.message, description: result.detail, variant: "success" });
  return data({ ok: false as const, intent, lead, error: result.error, fieldErrors: result.fieldErrors ?? {} }, { status: result.status });
}

/**
 * A refused claim or assignment (409: someone was quicker, a window passed) reloads the lists, so the lead no longer
 * shows a Claim button that cannot work. Other refusals (400: a form to fix) keep the page as it is.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) => actionStatus === 409 || defaultShouldRevalidate;

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
export default function TeamLeadsPage() {
  const loaded = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const me = loaded.members.find((m) => m.userId === loaded.me);
  const errorFor = (intent: string, lead?: string) => (failed && !failed.ok && failed.intent === intent && (lead === undefined || ("lead" in failed && failed.lead === lead)) ? failed : null);
  const agents = loaded.members.map((m) => [m.userId, m.userId === loaded.me ? `${m.name} (you)` : m.name] as const);
  return (
    <>
      <PageHeader title="Team leads" description={`${loaded.teamName}: ${LEAD_MODE_LABELS[loaded.mode]}. ${LEAD_MODE_HELP[loaded.mode]}`} />
      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="leads-waiting" className={`${card} lg:col-span-2`}>
          <h2 id="leads-waiting" className="font-semibold">
            Waiting for an agent
          </h2>
          {/* A claim or assignment refused for a lead that has since left these lists (someone was quicker). */}
          <LeadError
            error={
              failed && !failed.ok && "lead" in failed && failed.lead && !loaded.waiting.some((l) => l.id === failed.lead) && (failed.intent === "claim" || !loaded.assigned.some((l) => l.id === failed.lead))
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
                        {lead.state === "offered" && lead.offeredUntil ? ` · claim by ${formatTime(lead.offeredUntil, loaded.prefs)}` : " · in the pond"}
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
                      {loaded.manages ? (
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
                        {lead.how ? `${lead.how[0]!.toUpperCase()}${lead.how.slice(1)}` : "Assigned"} · {formatDateTime(lead.assignedAt, loaded.prefs)} · {lead.answered ? "answered" : "not answered yet"}
                      </p>
                    </div>
                    {loaded.manages && !lead.answered ? (
                      <AssignForm leadId={lead.id} label={`Reassign ${lead.name} to`} verb="Reassign" options={agents.filter(([id]) => id !== lead.holderId)} busy={busy} />
                    ) : null}
                    <LeadError error={error} />
                  </li>
                );
              })}
            </ul>
          )}
        </section>

        <section aria-labelledby="leads-availability" className={card}>
          <h2 id="leads-availability" className="font-semibold">
            Availability
          </h2>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Available members take leads by round robin and can claim them. Pause when you are away.</p>
          <ul aria-label="Members' availability" className="mt-2 flex flex-col gap-2">
            {loaded.members
              .filter((m) => loaded.manages || m.userId === loaded.me)
              .map((m) => (
                <li key={m.userId} className="flex flex-wrap items-center justify-between gap-2">
                  <span className="min-w-0 break-words">
                    <span className="font-medium">{m.userId === loaded.me ? `${m.name} (you)` : m.name}</span> · {m.available ? "available" : "paused"}
                  </span>
                  <Form method="post">
                    <input type="hidden" name="intent" value="availability" />
                    <input type="hidden" name="member" value={m.userId} />
                    <input type="hidden" name="available" value={m.available ? "false" : "true"} />
                    <Button type="submit" variant="ghost" disabled={busy} aria-label={`${m.available ? "Pause" : "Resume"} new leads for ${m.userId === loaded.me ? "you" : m.name}`}>
                      {m.available ? "Pause" : "Resume"}
                    </Button>
                  </Form>
                </li>
              ))}
          </ul>
        </section>

        {loaded.manages ? (
          <>
            <section aria-labelledby="leads-settings" className={card}>
              <h2 id="leads-settings" className="font-semibold">
                How new leads are distributed
              </h2>
              <Form method="post" className="mt-2 flex flex-col gap-3">
                <input type="hidden" name="intent" value="settings" />
                <SelectField label="Distribution" name="mode" options={LEAD_MODES.map((m) => [m, LEAD_MODE_LABELS[m]] as const)} defaultValue={loaded.mode} error={errorFor("settings")?.fieldErrors.mode} />
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

            <section aria-labelledby="leads-form" className={`${card} lg:col-span-2`}>
              <h2 id="leads-form" className="font-semibold">
                Website lead form
              </h2>
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                A page anyone can fill in, with your team&apos;s name on it: link to it from your website, listings and social profiles. Each enquiry arrives
                here as a website lead and is distributed as set above. A new address stops the old one from working.
              </p>
              {loaded.leadFormUrl ? (
                <p className="mt-2 text-sm [overflow-wrap:anywhere]">
                  <span className="font-medium">Address: </span>
                  <a href={loaded.leadFormUrl} target="_blank" rel="noreferrer" className="underline">
                    {loaded.leadFormUrl}
                  </a>
                </p>
              ) : (
                <p className="mt-2 text-sm font-medium">The form is off.</p>
              )}
              <div className="mt-3 flex flex-wrap gap-2">
                <Form method="post">
                  <input type="hidden" name="intent" value="form-on" />
                  <Button type="submit" variant="secondary" disabled={busy}>
                    {loaded.leadFormUrl ? "Give it a new address" : "Turn the form on"}
                  </Button>
                </Form>
                {loaded.leadFormUrl ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="form-off" />
                    <Button type="submit" variant="ghost" disabled={busy}>
                      Turn the form off
                    </Button>
                  </Form>
                ) : null}
              </div>
            </section>

            <section aria-labelledby="leads-add" className={`${card} lg:col-span-2`}>
              <h2 id="leads-add" className="font-semibold">
                Add a lead
              </h2>
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">A new lead for the team: it is distributed as set above.</p>
              <Form method="post" aria-label="Add a lead" className="mt-2 grid gap-3 sm:grid-cols-2">
                <input type="hidden" name="intent" value="add" />
                <Field label="Name" name="name" required error={errorFor("add")?.fieldErrors.name} />
                <SelectField
                  label="Source"
                  name="source"
                  placeholder={{ label: "Where did this lead come from?", disabled: true }}
                  options={CONTACT_SOURCES.map((s) => [s, SOURCE_LABELS[s]] as const)}
                  error={errorFor("add")?.fieldErrors.source}
                />
                <Field label="Phone" name="phone" type="tel" error={errorFor("add")?.fieldErrors.phone} />
                <Field label="E-mail" name="email" type="email" error={errorFor("add")?.fieldErrors.email} />
                <div className="flex flex-col sm:col-span-2">
                  <label htmlFor="lead-message" className="text-sm font-medium">
                    Message
                  </label>
                  <textarea id="lead-message" name="message" rows={3} maxLength={10_000} className="mt-1 rounded-lg border border-stone-300 bg-white px-3 py-2 text-base dark:border-stone-700 dark:bg-stone-950" />
                </div>
                <div className="sm:col-span-2">
                  <Button type="submit" disabled={busy}>
                    Add lead
                  </Button>
                </div>
              </Form>
              <Form method="post" encType="multipart/form-data" aria-label="Import leads" className="mt-4 flex flex-col gap-2 border-t border-stone-200 pt-4 dark:border-stone-800">
                <input type="hidden" name="intent" value="import" />
                <label htmlFor="leads-file" className="text-sm font-medium">
                  Or import a CSV file of leads
                </label>
                <p id="leads-file-hint" className="text-sm text-stone-600 dark:text-stone-400">
                  Up to {LEAD_IMPORT_ROWS} rows, with a Name column and a phone or e-mail for each; Source and Notes columns are used too. Each lead is distributed as set above.
                </p>
                <input id="leads-file" name="file" type="file" accept=".csv,text/csv" required aria-describedby="leads-file-hint" className="min-h-12 w-full max-w-full text-base" />
                <LeadError error={errorFor("import")} />
                <div>
                  <Button type="submit" variant="secondary" disabled={busy}>
                    Import leads
                  </Button>
                </div>
              </Form>
            </section>
          </>
        ) : null}
      </div>
    </>
  );
}

/** An owner's or admin's choice of agent for a lead (assign a waiting one, reassign an unanswered one). */
function AssignForm({ leadId, label, verb, options, busy }: { leadId: string; label: string; verb: string; options: readonly (readonly [string, string])[]; busy: boolean }) {
  return (
    // One column on a phone (a select is as wide as its longest name otherwise, and would push the page sideways).
    <Form method="post" className="grid grid-cols-1 gap-2 sm:flex sm:flex-wrap sm:items-end">
      <input type="hidden" name="intent" value="assign" />
      <input type="hidden" name="lead" value={leadId} />
      <div className="min-w-0 sm:w-72">
        <SelectField label={label} name="agent" options={options} placeholder={{ label: "Choose an agent" }} />
      </div>
      <Button type="submit" variant="secondary" disabled={busy}>
        {verb}
      </Button>
    </Form>
  );
}

function LeadError({ error }: { error: { error: string } | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
      {error.error}
    </p>
  );
}
