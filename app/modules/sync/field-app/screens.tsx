import { ArrowLeft, Mail, MessageSquare, Phone, Plus } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { SelectField } from "~/components/ui/SelectField";
import type { ContactStatus } from "~/db/enums";
import { formatCentsWhole, formatDateTime, formatDay } from "~/lib/format";
import { formatClock } from "~/modules/tasks/due-label";
import { ACTIVITY_TYPE_LABELS, LOGGABLE_ACTIVITY_TYPES } from "~/modules/activities/activity.schema";
import { STATUS_LABELS } from "~/modules/contacts/contacts.messages";
import { budgetText } from "~/modules/contacts/components/ContactDetails";
import { StatusBadge } from "~/modules/contacts/components/StatusBadge";
import { localNow } from "~/modules/tasks/due";
import { copyPrefs, searchContacts, type ViewContact, type ViewDeal, type ViewTask } from "../field-view";
import { submitChange } from "./submit";
import { useOnline } from "../use-online";
import { withdrawMoves } from "../local-copy.client";
import { ClosedDateField } from "~/modules/deals/components/ClosedDateField";
import { ReachOutLink } from "../components/ReachOutLink";
import type { CopyState } from "./use-field-copy-state";

type Ready = Extract<CopyState, { status: "ready" }>;

/** How many rows a list shows before asking for a narrower search (a copy holds up to 1,500 contacts). */
const LIST_LIMIT = 100;

/** The agent's own formats (12- or 24-hour time, US or EU dates), as the copy holds them. */
const prefsOf = (state: Ready) => copyPrefs(state.meta);

function Pending({ children = "Waiting to send" }: { children?: string }) {
  return (
    <span className="inline-flex rounded-full bg-stone-200 px-2 py-0.5 text-xs font-semibold text-stone-800 dark:bg-stone-700 dark:text-stone-100">
      {children}
    </span>
  );
}

function Section({ title, children, action }: { title: string; children: React.ReactNode; action?: React.ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="mt-6">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

const card = "rounded-xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
const empty = "rounded-xl border border-dashed border-stone-300 p-4 text-sm text-stone-600 dark:border-stone-700 dark:text-stone-400";

/** A line saying what happened, read out by screen readers. */
function Said({ text }: { text: string | null }) {
  return (
    <p role="status" className="text-sm font-medium text-emerald-800 dark:text-emerald-300">
      {text}
    </p>
  );
}

const QUEUED_TEXT = "Saved on this phone. It will be sent when you are back online.";

type Saying = { key: string } | { text: string } | null;

/**
 * The line under a form: what became of the change it queued, followed through the queue (saved on the phone while
 * offline, sending, sent), or another message. A change that has gone is never still "will be sent".
 */
function useSaid(state: Ready): [string | null, (saying: Saying) => void] {
  const online = useOnline();
  const [saying, setSaying] = useState<Saying>(null);
  if (!saying) return [null, setSaying];
  if ("text" in saying) return [saying.text, setSaying];
  const pending = state.view.pending.some((entry) => entry.change.key === saying.key);
  const answered = state.view.answered.some((entry) => entry.change.key === saying.key);
  return [pending ? (online ? "Sending…" : QUEUED_TEXT) : answered ? "Sent. The server's answer is at the top of the page." : "Sent.", setSaying];
}

// ——— Tasks ———

function TaskRow({ task, state, today }: { task: ViewTask; state: Ready; today: string }) {
  const [error, setError] = useState<string | null>(null);
  const complete = async () => {
    const result = await submitChange(
      state.userId,
      { type: "complete_task", taskId: task.id, contactId: task.contactId },
      `Task completed: ${task.title}`,
    );
    setError(result.ok ? null : result.error);
  };
  const done = task.pending === "completed";
  return (
    <li className={`${card} flex items-start justify-between gap-3`}>
      <div className="min-w-0">
        <p className={`font-medium ${done ? "text-stone-500 line-through" : ""}`}>{task.title}</p>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {task.dueDate < today ? "Overdue · " : ""}
          {formatDay(task.dueDate, prefsOf(state))}
          {task.dueTime ? ` at ${formatClock(task.dueTime, prefsOf(state))}` : ""}
          {task.contactName && task.contactId ? (
            <>
              {" · "}
              <a href={`#/contacts/${task.contactId}`} className="underline underline-offset-2">
                {task.contactName}
              </a>
            </>
          ) : null}
        </p>
        {task.pending ? (
          <p className="mt-1">
            <Pending>{task.pending === "completed" ? "Done — waiting to send" : "Added — waiting to send"}</Pending>
          </p>
        ) : null}
        {error ? <p className="mt-1 text-sm text-red-700 dark:text-red-400">{error}</p> : null}
      </div>
      {done || task.pending === "added" ? null : (
        <Button type="button" variant="secondary" onClick={() => void complete()} aria-label={`Complete ${task.title}`}>
          Done
        </Button>
      )}
    </li>
  );
}

function TaskList({ tasks, state, today, none }: { tasks: ViewTask[]; state: Ready; today: string; none: string }) {
  if (tasks.length === 0) return <p className={empty}>{none}</p>;
  return (
    <ul className="space-y-2">
      {tasks.map((task) => (
        <TaskRow key={task.id} task={task} state={state} today={today} />
      ))}
    </ul>
  );
}

function AddTaskForm({ state, contact }: { state: Ready; contact?: ViewContact }) {
  const today = localNow(state.meta.timezone).date;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [said, setSaid] = useSaid(state);
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const title = String(data.get("title") ?? "");
    const result = await submitChange(
      state.userId,
      {
        type: "add_task",
        task: {
          title,
          dueDate: String(data.get("dueDate") ?? ""),
          dueTime: null,
          contactId: contact?.id ?? null,
          dealId: null,
          notes: null,
          repeat: null,
        },
      },
      `Task added: ${title.trim()}`,
    );
    if (!result.ok) {
      setErrors({ [result.field.split(".").pop() ?? "title"]: result.error });
      setSaid(null);
      return;
    }
    setErrors({});
    form.reset();
    setSaid({ key: result.key });
  };
  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className={`${card} space-y-3`}
      aria-label={contact ? `Add a task for ${contact.name}` : "Add a task"}
    >
      <Field label="Task" name="title" maxLength={200} error={errors.title} />
      <Field label="Due" name="dueDate" type="date" defaultValue={today} error={errors.dueDate} />
      <Button type="submit">
        <Plus aria-hidden="true" className="h-4 w-4" /> Add task
      </Button>
      <Said text={said} />
    </form>
  );
}

export function TasksScreen({ state }: { state: Ready }) {
  const today = localNow(state.meta.timezone).date;
  const tasks = state.view.tasks;
  return (
    <>
      <h1 className="text-2xl font-bold">Tasks</h1>
      <Section title="Add a task">
        <AddTaskForm state={state} />
      </Section>
      <Section title="Overdue">
        <TaskList tasks={tasks.filter((t) => t.dueDate < today)} state={state} today={today} none="Nothing overdue." />
      </Section>
      <Section title="Today">
        <TaskList tasks={tasks.filter((t) => t.dueDate === today)} state={state} today={today} none="Nothing due today." />
      </Section>
      <Section title="Coming up">
        <TaskList tasks={tasks.filter((t) => t.dueDate > today)} state={state} today={today} none="Nothing in the next 14 days." />
      </Section>
    </>
  );
}

// ——— Dashboard ———

export function DashboardScreen({ state }: { state: Ready }) {
  const today = localNow(state.meta.timezone).date;
  const prefs = prefsOf(state);
  const soon = useMemo(() => {
    const limit = new Date(`${today}T12:00:00Z`);
    limit.setUTCDate(limit.getUTCDate() + 14);
    const last = limit.toISOString().slice(0, 10);
    return state.view.deals
      .filter((deal) => deal.expectedCloseDate && deal.expectedCloseDate <= last)
      .sort((a, b) => (a.expectedCloseDate ?? "").localeCompare(b.expectedCloseDate ?? ""));
  }, [state.view.deals, today]);
  const hot = state.view.contacts
    .filter((c) => c.status === "hot")
    .sort((a, b) => b.leadScore - a.leadScore)
    .slice(0, 5);
  return (
    <>
      <h1 className="text-2xl font-bold">Today</h1>
      <p className="text-stone-600 dark:text-stone-400">{formatDay(today, prefs)}</p>
      <Section title="Overdue">
        <TaskList tasks={state.view.tasks.filter((t) => t.dueDate < today)} state={state} today={today} none="Nothing overdue." />
      </Section>
      <Section title="Today's tasks">
        <TaskList tasks={state.view.tasks.filter((t) => t.dueDate === today)} state={state} today={today} none="Nothing due today." />
      </Section>
      <Section title="Hot leads">
        {hot.length ? (
          <ul className="space-y-2">
            {hot.map((contact) => (
              <ContactRow key={contact.id} contact={contact} userId={state.userId} />
            ))}
          </ul>
        ) : (
          <p className={empty}>No hot leads in the copy.</p>
        )}
      </Section>
      <Section title="Closing in the next 14 days">
        {soon.length ? (
          <ul className="space-y-2">
            {soon.map((deal) => (
              <li key={deal.id} className={card}>
                <p className="font-medium">{deal.title}</p>
                <p className="text-sm text-stone-600 dark:text-stone-400">
                  {formatDay(deal.expectedCloseDate ?? today, prefs)} · {formatCentsWhole(deal.dealValueCents, prefs)} · your net{" "}
                  {formatCentsWhole(deal.netCents, prefs)}
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <p className={empty}>No open deal closes in the next 14 days.</p>
        )}
      </Section>
    </>
  );
}

// ——— Contacts ———

function ContactRow({ contact, userId }: { contact: ViewContact; userId: string }) {
  return (
    <li className={`${card} flex items-center justify-between gap-3`}>
      <div className="min-w-0">
        <a href={`#/contacts/${contact.id}`} className="font-medium underline-offset-2 hover:underline">
          {contact.name}
        </a>
        <p className="flex flex-wrap items-center gap-2 text-sm text-stone-600 dark:text-stone-400">
          <StatusBadge status={contact.status} />
          {contact.phone ?? contact.email ?? ""}
          {contact.pending ? <Pending>Added — waiting to send</Pending> : null}
        </p>
      </div>
      {contact.phone ? (
        <ReachOutLink
          contact={contact}
          phone={contact.phone}
          kind="call"
          userId={userId}
          className={buttonClass("secondary", "shrink-0")}
          label={`Call ${contact.name}`}
        >
          <Phone aria-hidden="true" className="h-5 w-5" />
        </ReachOutLink>
      ) : null}
    </li>
  );
}

export function ContactsScreen({ state, initialQuery }: { state: Ready; initialQuery: string }) {
  const [query, setQuery] = useState(initialQuery);
  const found = useMemo(() => searchContacts(state.view.contacts, query), [state.view.contacts, query]);
  const shown = found.slice(0, LIST_LIMIT);
  return (
    <>
      <div className="flex items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">Contacts</h1>
        <a href="#/add-contact" className={buttonClass("primary")}>
          <Plus aria-hidden="true" className="h-4 w-4" /> Add contact
        </a>
      </div>
      <div className="mt-4">
        <Field
          label="Search the contacts saved on this phone"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          hint={
            state.meta.truncated.contacts
              ? "The copy holds your 1,500 most recently active hot, warm and recent contacts."
              : "Your hot and warm contacts and everyone you were in touch with in the last 30 days."
          }
        />
      </div>
      <p role="status" className="mt-3 text-sm text-stone-600 dark:text-stone-400">
        {found.length === 0
          ? "No saved contact matches."
          : found.length > shown.length
            ? `Showing ${shown.length} of ${found.length}: search to narrow.`
            : `${found.length} ${found.length === 1 ? "contact" : "contacts"}`}
      </p>
      <ul className="mt-2 space-y-2">
        {shown.map((contact) => (
          <ContactRow key={contact.id} contact={contact} userId={state.userId} />
        ))}
      </ul>
    </>
  );
}

function LogActivityForm({ state, contact }: { state: Ready; contact: ViewContact }) {
  const [error, setError] = useState<{ field: string; text: string } | null>(null);
  const [said, setSaid] = useSaid(state);
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const type = String(data.get("type") ?? "call") as (typeof LOGGABLE_ACTIVITY_TYPES)[number];
    const { date, time } = localNow(state.meta.timezone);
    const result = await submitChange(
      state.userId,
      {
        type: "log_activity",
        activity: {
          type,
          contactId: contact.id,
          dealId: null,
          date,
          time,
          outcome: String(data.get("outcome") ?? ""),
          notes: String(data.get("notes") ?? ""),
        },
      },
      `${ACTIVITY_TYPE_LABELS[type]} logged with ${contact.name}`,
    );
    if (!result.ok) {
      setError({ field: result.field.split(".").pop() ?? "", text: result.error });
      setSaid(null);
      return;
    }
    setError(null);
    form.reset();
    setSaid({ key: result.key });
  };
  const notesId = useId();
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className={`${card} space-y-3`} aria-label={`Log an activity with ${contact.name}`}>
      <SelectField
        label="What happened"
        name="type"
        defaultValue="call"
        options={LOGGABLE_ACTIVITY_TYPES.map((type) => [type, ACTIVITY_TYPE_LABELS[type]] as const)}
        error={error?.field === "type" ? error.text : undefined}
      />
      <Field
        label="Outcome"
        name="outcome"
        maxLength={200}
        hint="Optional: “Left a voicemail”, “Loved the kitchen”."
        error={error?.field === "outcome" ? error.text : undefined}
      />
      <FieldShell id={notesId} label="Notes" error={error && error.field !== "type" && error.field !== "outcome" ? error.text : undefined}>
        <textarea
          name="notes"
          rows={3}
          maxLength={5000}
          className="rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
        />
      </FieldShell>
      <Button type="submit">Log it</Button>
      <Said text={said} />
    </form>
  );
}

export function ContactScreen({ state, id }: { state: Ready; id: string }) {
  const contact = state.view.contacts.find((c) => c.id === id);
  const prefs = prefsOf(state);
  const today = localNow(state.meta.timezone).date;
  if (!contact) {
    return (
      <>
        <BackTo href="#/contacts" label="Contacts" />
        <h1 className="text-2xl font-bold">Not in the saved copy</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-300">
          This contact is not among those kept on the phone (hot and warm contacts, and everyone touched in the last 30 days). It opens as soon as you
          are back online.
        </p>
      </>
    );
  }
  const budget = contact.budgetMin == null && contact.budgetMax == null ? null : budgetText(contact, prefs);
  const tasks = state.view.tasks.filter((t) => t.contactId === contact.id);
  return (
    <>
      <BackTo href="#/contacts" label="Contacts" />
      <h1 className="text-2xl font-bold">{contact.name}</h1>
      <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-stone-600 dark:text-stone-400">
        <StatusBadge status={contact.status} />
        {contact.pending ? <Pending>Added — waiting to send</Pending> : <span>Lead score {contact.leadScore}</span>}
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        {contact.phone ? (
          <>
            <ReachOutLink contact={contact} phone={contact.phone} kind="call" userId={state.userId} className={buttonClass("primary")}>
              <Phone aria-hidden="true" className="h-4 w-4" /> Call {contact.phone}
            </ReachOutLink>
            <ReachOutLink contact={contact} phone={contact.phone} kind="text" userId={state.userId} className={buttonClass("secondary")}>
              <MessageSquare aria-hidden="true" className="h-4 w-4" /> Text
            </ReachOutLink>
          </>
        ) : null}
        {contact.email ? (
          <a href={`mailto:${contact.email}`} className={buttonClass("secondary")}>
            <Mail aria-hidden="true" className="h-4 w-4" /> E-mail
          </a>
        ) : null}
      </div>
      <dl className={`${card} mt-4 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-2`}>
        {contact.email ? <Detail term="E-mail" value={contact.email} /> : null}
        {budget ? <Detail term="Budget" value={budget} /> : null}
        {contact.location ? <Detail term="Location" value={contact.location} /> : null}
        {contact.tags.length ? <Detail term="Tags" value={contact.tags.join(", ")} /> : null}
        {contact.notes ? <Detail term="Notes" value={contact.notes} wide /> : null}
      </dl>
      <Section title="Log an activity">
        <LogActivityForm state={state} contact={contact} />
      </Section>
      <Section title="Open tasks">
        <TaskList tasks={tasks} state={state} today={today} none="No open task for this contact in the next 14 days." />
      </Section>
      <Section title="Add a task">
        <AddTaskForm state={state} contact={contact} />
      </Section>
      <Section title="Recent activity">
        {contact.activities.length ? (
          <ol className="space-y-2">
            {contact.activities.map((activity) => (
              <li key={activity.id} className={card}>
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {ACTIVITY_TYPE_LABELS[activity.type]}
                  {activity.pending ? <Pending /> : null}
                </p>
                <p className="text-sm text-stone-600 dark:text-stone-400">{formatDateTime(activity.occurredAt, prefs)}</p>
                {activity.outcome ? <p className="mt-1 text-sm">{activity.outcome}</p> : null}
                {activity.notes ? <p className="mt-1 whitespace-pre-line text-sm">{activity.notes}</p> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className={empty}>No activity saved for this contact.</p>
        )}
      </Section>
    </>
  );
}

function Detail({ term, value, wide = false }: { term: string; value: string; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2" : ""}>
      <dt className="font-medium text-stone-600 dark:text-stone-400">{term}</dt>
      <dd className="whitespace-pre-line break-words">{value}</dd>
    </div>
  );
}

function BackTo({ href, label }: { href: string; label: string }) {
  return (
    <a
      href={href}
      className="mb-3 inline-flex min-h-12 items-center gap-2 text-sm font-medium text-stone-700 underline-offset-2 hover:underline dark:text-stone-300"
    >
      <ArrowLeft aria-hidden="true" className="h-4 w-4" /> {label}
    </a>
  );
}

export function AddContactScreen({ state }: { state: Ready }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const contact = {
      name: String(data.get("name") ?? ""),
      phone: String(data.get("phone") ?? ""),
      email: String(data.get("email") ?? ""),
      status: String(data.get("status") ?? "warm") as ContactStatus,
      notes: String(data.get("notes") ?? ""),
      tags: [],
      // The rest of the online form's fields, left for later.
      budgetMin: null,
      budgetMax: null,
      bedrooms: null,
      bathrooms: null,
      location: null,
      company: null,
      address: null,
      timeline: null,
    };
    const result = await submitChange(state.userId, { type: "add_contact", contact }, `Contact added: ${contact.name.trim()}`);
    if (!result.ok) {
      setErrors({ [result.field.split(".").pop() ?? "name"]: result.error });
      return;
    }
    window.location.hash = `#/contacts/${result.id}`;
  };
  const notesId = useId();
  return (
    <>
      <BackTo href="#/contacts" label="Contacts" />
      <h1 className="text-2xl font-bold">Add contact</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Saved on this phone and sent when you are back online.</p>
      <form onSubmit={(event) => void submit(event)} noValidate className={`${card} mt-4 space-y-3`} aria-label="Add contact">
        <Field label="Name" name="name" autoComplete="off" maxLength={200} error={errors.name} />
        <Field label="Phone" name="phone" type="tel" autoComplete="off" error={errors.phone} />
        <Field label="E-mail" name="email" type="email" autoComplete="off" error={errors.email} />
        <SelectField
          label="Status"
          name="status"
          defaultValue="warm"
          options={(["hot", "warm", "cold"] as const).map((s) => [s, STATUS_LABELS[s]] as const)}
          error={errors.status}
        />
        <FieldShell id={notesId} label="Notes" error={errors.notes}>
          <textarea
            name="notes"
            rows={3}
            className="rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
          />
        </FieldShell>
        <Button type="submit">Save contact</Button>
      </form>
    </>
  );
}

// ——— Pipeline ———

function DealCard({ deal, state }: { deal: ViewDeal; state: Ready }) {
  const prefs = prefsOf(state);
  const [error, setError] = useState<string | null>(null);
  const [said, setSaid] = useSaid(state);
  const current = deal.movedTo ?? deal.stage;
  // Marking a deal lost asks for the reason, which only the online page does.
  const targets = state.stages.filter((stage) => stage.key !== current && stage.kind !== "lost");
  // The stage after the one it is in comes first: moving forward is the usual move.
  const at = state.stages.findIndex((stage) => stage.key === current);
  const next = state.stages.slice(at + 1).find((stage) => stage.kind !== "lost")?.key ?? targets[0]?.key;
  const selectId = useId();
  const [choice, setChoice] = useState(next ?? "");
  useEffect(() => setChoice(next ?? ""), [current, next]);
  // A move into a won stage asks the day it closed (today on the phone's copy of the agent's clock, unless changed):
  // the change may reach the server days later.
  const closing = state.stages.find((stage) => stage.key === choice)?.kind === "won";
  const today = localNow(state.meta.timezone).date;
  const move = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const to = String(form.get("stage") ?? "");
    const name = state.stages.find((stage) => stage.key === to)?.name ?? to;
    const closedDate = closing ? String(form.get("closedDate") ?? "") : undefined;
    const result = await submitChange(
      state.userId,
      { type: "move_deal", dealId: deal.id, fromStage: deal.stage, toStage: to, closedDate, note: null },
      `${deal.title} moved to ${name}`,
    );
    setError(result.ok ? null : result.error);
    setSaid(result.ok ? { key: result.key } : null);
  };
  const undo = async () => {
    const withdrawn = await withdrawMoves(state.userId, deal.id);
    setError(withdrawn ? null : "This move has been sent already. Move the deal back on its page.");
    setSaid(
      withdrawn
        ? { text: `Move undone: ${deal.title} stays in ${state.stages.find((stage) => stage.key === deal.stage)?.name ?? deal.stage}.` }
        : null,
    );
  };
  return (
    <li className={card}>
      <p className="font-medium">{deal.title}</p>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        {deal.contactName && deal.contactId ? (
          <>
            <a href={`#/contacts/${deal.contactId}`} className="underline underline-offset-2">
              {deal.contactName}
            </a>
            {" · "}
          </>
        ) : null}
        {formatCentsWhole(deal.dealValueCents, prefs)} · your net {formatCentsWhole(deal.netCents, prefs)}
        {deal.expectedCloseDate ? ` · closes ${formatDay(deal.expectedCloseDate, prefs)}` : ""}
      </p>
      {deal.movedTo ? (
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <Pending>
            {deal.closedOn ? `Moved here, closed ${formatDay(deal.closedOn, prefs)} — waiting to send` : "Moved here — waiting to send"}
          </Pending>
          <Button type="button" variant="ghost" onClick={() => void undo()} aria-label={`Undo the move of ${deal.title}`}>
            Undo
          </Button>
        </div>
      ) : null}
      {targets.length ? (
        <form onSubmit={(event) => void move(event)} className="mt-3 flex flex-wrap items-end gap-2" aria-label={`Move ${deal.title}`}>
          <div className="flex min-w-40 flex-1 flex-col gap-1">
            <label htmlFor={selectId} className="text-sm font-medium">
              Move to
            </label>
            <select
              id={selectId}
              name="stage"
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
              className="min-h-12 rounded-lg border border-stone-300 bg-white px-3 dark:border-stone-700 dark:bg-stone-900"
            >
              {targets.map((stage) => (
                <option key={stage.key} value={stage.key}>
                  {stage.name}
                </option>
              ))}
            </select>
          </div>
          {closing ? (
            <div className="w-full">
              <ClosedDateField id={`${selectId}-closed`} today={today} />
            </div>
          ) : null}
          <Button type="submit" variant="secondary">
            Move
          </Button>
        </form>
      ) : null}
      {error ? <p className="mt-1 text-sm text-red-700 dark:text-red-400">{error}</p> : null}
      <Said text={said} />
    </li>
  );
}

export function PipelineScreen({ state }: { state: Ready }) {
  const groups = state.stages
    .map((stage) => ({ stage, deals: state.view.deals.filter((deal) => (deal.movedTo ?? deal.stage) === stage.key) }))
    .filter((group) => group.deals.length > 0);
  return (
    <>
      <h1 className="text-2xl font-bold">Pipeline</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Your open deals. Marking a deal lost asks for the reason, so it waits for a connection.
      </p>
      {groups.length === 0 ? <p className={`${empty} mt-4`}>No open deals in the copy.</p> : null}
      {groups.map(({ stage, deals }) => (
        <Section key={stage.key} title={`${stage.name} (${deals.length})`}>
          <ul className="space-y-2">
            {deals.map((deal) => (
              <DealCard key={deal.id} deal={deal} state={state} />
            ))}
          </ul>
        </Section>
      ))}
    </>
  );
}

// ——— Pages that need the server ———

export function NeedsServerScreen({ page, path, online }: { page: string; path: string; online: boolean }) {
  return (
    <section className="py-6">
      <h1 className="text-2xl font-bold">{page} needs a connection</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-300">
        It works from your whole account on the server, so it cannot open from the copy on this phone. Your dashboard, contacts, tasks and pipeline
        are here offline.
      </p>
      <div className="mt-6 flex flex-wrap gap-2">
        {online ? (
          <a href={path} className={buttonClass("primary")}>
            Open {page.replace(/^(The|A) /, (word) => word.toLowerCase())}
          </a>
        ) : null}
        <a href="#/dashboard" className={buttonClass(online ? "secondary" : "primary")}>
          Go to the dashboard
        </a>
      </div>
    </section>
  );
}
