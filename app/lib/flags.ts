// Feature flags (decisions.md "Feature flags"). One var, FEATURE_FLAGS, lists the flags a deployment changes from
// their defaults: `FEATURE_FLAGS="QA_PAGE=on,TEAM_INVITES=off"`. Parsed and checked with the rest of the configuration
// (app/lib/env.server.ts): an unknown flag or value stops the Worker with a message naming it, rather than running
// with a typo. Only flags that switch something exist (ADR 0030); the spec's other five switched nothing and were
// removed, and naming one says so.

const FLAGS = {
  QA_PAGE: { default: false, controls: "The admin QA screens, /qa and /qa-test. Off: those paths are not found, for admins too." },
  PUSH_NOTIFICATIONS: {
    default: false,
    controls:
      "New-lead alerts by Web Push: Settings → Notifications, the alert when a lead arrives and the cron's five-minute reminder. Needs VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY. Off: no tab, no push; the dashboard still times new leads.",
  },
  TEAM_INVITES: {
    default: false,
    controls:
      "Invitations by e-mail on the Team page (send, resend, withdraw). Turn it on where the Team plan is sold. Off: the Team page says invitations are not available, and links already sent still work.",
  },
} as const satisfies Record<string, { default: boolean; controls: string }>;

/** The spec's flags that switched nothing, and why: naming one in FEATURE_FLAGS is an error that says so. */
const REMOVED: Record<string, string> = {
  GDPR_EXPORT: "the data export, Delete my data and Delete my account are promised by the terms and the privacy policy, so they are always on",
  ADV_REPORTS: "Reports is part of every plan",
  SETTINGS_TABS_MINIMAL: "Settings only ever shows tabs that have something in them",
  INTEGRATIONS: "no third-party integration is built",
  MLS_INTEGRATION: "no MLS feed is built",
};

type FlagName = keyof typeof FLAGS;
export type Flags = Record<FlagName, boolean>;
const FLAG_NAMES = Object.keys(FLAGS) as FlagName[];

const ON = new Set(["on", "true", "1", "yes"]);
const OFF = new Set(["off", "false", "0", "no"]);

/** The spec's defaults with a FEATURE_FLAGS value's changes; throws an Error naming a bad entry. */
export function parseFlags(text: string | undefined): Flags {
  const flags = Object.fromEntries(FLAG_NAMES.map((name) => [name, FLAGS[name].default])) as Flags;
  for (const entry of (text ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [rawName = "", rawValue, ...rest] = entry.split("=").map((p) => p.trim());
    const name = rawName.toUpperCase();
    if (name in REMOVED)
      throw new Error(`FEATURE_FLAGS names ${name}, which was removed because it switched nothing: ${REMOVED[name]}. Take it out of FEATURE_FLAGS.`);
    if (!(name in FLAGS)) throw new Error(`FEATURE_FLAGS names an unknown flag "${rawName}" (known: ${FLAG_NAMES.join(", ")}).`);
    const value = (rawValue ?? "").toLowerCase();
    if (rest.length > 0 || !(ON.has(value) || OFF.has(value))) throw new Error(`FEATURE_FLAGS: write ${name}=on or ${name}=off, not "${entry}".`);
    flags[name as FlagName] = ON.has(value);
  }
  return flags;
}
