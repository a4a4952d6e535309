import type { RouteTargetJson } from "~/db/schema";

const FIELD_ERROR = "mt-1 text-sm text-red-700 dark:text-red-400";

/**
 * Where leads go: one agent, a group in turn, or the pond. Plain radios, a select and checkboxes, so it works before
 * the page's script loads and with a keyboard alone.
 */
export function RouteTarget({
  legend,
  names,
  members,
  value,
  errors,
}: {
  legend: string;
  /** The form fields' names: the kind, the one agent, the group's members. */
  names: { kind: string; agent: string; group: string };
  members: readonly { userId: string; name: string }[];
  value: RouteTargetJson | null;
  errors: Record<string, string | undefined>;
}) {
  const kind = value?.kind ?? "agent";
  const idOf = (suffix: string) => `${names.kind}-${suffix}`;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">{legend}</legend>
      {(["agent", "group", "pond"] as const).map((k) => (
        <label key={k} className="flex min-h-12 items-center gap-2">
          <input type="radio" name={names.kind} value={k} defaultChecked={kind === k} className="size-5" />
          {k === "agent" ? "One agent" : k === "group" ? "A group of agents, in turn" : "The pond"}
        </label>
      ))}
      {errors[names.kind] ? <p className={FIELD_ERROR}>{errors[names.kind]}</p> : null}
      <label htmlFor={idOf("agent")} className="text-sm font-medium">
        The agent (one agent)
      </label>
      <select
        id={idOf("agent")}
        name={names.agent}
        defaultValue={value?.kind === "agent" ? value.agents[0] : ""}
        aria-invalid={errors[names.agent] ? true : undefined}
        aria-describedby={errors[names.agent] ? idOf("agent-error") : undefined}
        className="min-h-12 w-full rounded-lg border border-stone-300 bg-white px-3 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
      >
        <option value="">Choose an agent</option>
        {members.map((m) => (
          <option key={m.userId} value={m.userId}>
            {m.name}
          </option>
        ))}
      </select>
      {errors[names.agent] ? (
        <p id={idOf("agent-error")} className={FIELD_ERROR}>
          {errors[names.agent]}
        </p>
      ) : null}
      <fieldset aria-describedby={errors[names.group] ? idOf("group-error") : undefined}>
        <legend className="text-sm font-medium">The group (a group of agents)</legend>
        {members.map((m) => (
          <label key={m.userId} className="flex min-h-12 items-center gap-2">
            <input
              type="checkbox"
              name={names.group}
              value={m.userId}
              defaultChecked={value?.kind === "group" && value.agents.includes(m.userId)}
              className="size-5"
            />
            {m.name}
          </label>
        ))}
        {errors[names.group] ? (
          <p id={idOf("group-error")} className={FIELD_ERROR}>
            {errors[names.group]}
          </p>
        ) : null}
      </fieldset>
    </fieldset>
  );
}
