// What removing a member moves or leaves, in words: the removal dialog says it before anything happens.

/** A member's own work, counted: what a handover moves to a teammate, or what stays in their account. */
export interface MemberWork {
  contacts: number;
  deals: number;
  tasks: number;
  activities: number;
  leads: number;
}

export const NO_WORK: MemberWork = { contacts: 0, deals: 0, tasks: 0, activities: 0, leads: 0 };

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "12 contacts, 3 deals, 5 tasks, 40 activities and 2 team leads", or "nothing yet". */
export function workPhrase(work: MemberWork): string {
  const parts = [
    work.contacts ? plural(work.contacts, "contact") : null,
    work.deals ? plural(work.deals, "deal") : null,
    work.tasks ? plural(work.tasks, "task") : null,
    work.activities ? plural(work.activities, "activity", "activities") : null,
    work.leads ? plural(work.leads, "team lead") : null,
  ].filter((p): p is string => p !== null);
  if (parts.length === 0) return "nothing yet";
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** What the confirmation says will happen to the member's work. */
export function removalSummary(member: string, work: MemberWork, to: string | null): string {
  const what = workPhrase(work);
  if (to === null) return `${member} keeps their account and everything in it (${what}). Their seat comes off the team's next invoice, prorated.`;
  return `${what === "nothing yet" ? "Nothing of theirs moves (they have nothing yet)" : `${what[0]!.toUpperCase()}${what.slice(1)} move to ${to}`}, with their timelines. Deals ${member} shares with co-agents stop being shared; their settings, trash and backups stay with their own account. Their seat comes off the team's next invoice, prorated.`;
}

/** What handing a member's work to a teammate moves, while they stay on the team. */
export function handOverSummary(member: string, work: MemberWork, to: string | null): string {
  const what = workPhrase(work);
  if (to === null) return `Choose who takes over ${member}'s work (${what}). ${member} stays on the team.`;
  const moves =
    what === "nothing yet" ? `Nothing of ${member}'s moves (they have nothing yet)` : `${what[0]!.toUpperCase()}${what.slice(1)} move to ${to}`;
  return `${moves}, with their timelines. Deals ${member} shares with co-agents stop being shared. ${member} stays on the team with their seat; what they add from now on stays theirs.`;
}
