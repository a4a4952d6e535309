// Feature flags (issue 19; spec section 10; decisions.md "Feature flags"). One var, FEATURE_FLAGS, lists the flags
// a deployment changes from the spec's defaults: `FEATURE_FLAGS="QA_PAGE=on,TEAM_INVITES=off"`. Parsed and
// checked with the rest of the configuration (app/lib/env.server.ts): an unknown flag or value stops the Worker
// with a message naming it, rather than running with a typo. ADR 0030 says what each flag can and cannot turn off.

const FLAGS = {
  QA_PAGE: { default: false, controls: "The admin QA screens, /qa and /qa-test. Off: those paths are not found, for admins too." },
  GDPR_EXPORT: {
    default: false,
    controls: "Nothing it can turn off: the data export, Delete my data and Delete my account are promised by the terms and the privacy policy, so they are always on.",
  },
  INTEGRATIONS: { default: false, controls: "Nothing yet: no third-party integration is built." },
  ADV_REPORTS: { default: false, controls: "Nothing it can turn off: Reports is part of every plan." },
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
  MLS_INTEGRATION: { default: false, controls: "Nothing yet: no MLS feed is built." },
  SETTINGS_TABS_MINIMAL: { default: true, controls: "Nothing it changes: Settings only ever shows tabs that have something in them." },
} as const satisfies Record<string, { default: boolean; controls: string }>;

type FlagName = keyof typeof FLAGS;
export type Flags = Record<FlagName, boolean>;
const FLAG_NAMES = Object.keys(FLAGS) as FlagName[];

const ON = new Set(["on", "true", "1", "yes"]);
const OFF = new Set(["off", "false", "0", "no"]);

/** The spec's defaults with a FEATURE_FLAGS value's changes; throws an Error naming a bad entry. */
export function parseFlags(text: string | undefined): Flags {
  const flags = Object.fromEntries(FLAG_NAMES.map((name) => [name, FLAGS[name].default])) as Flags;
  for (const entry of (text ?? "").split(",").map((e) => e.trim()).filter(Boolean)) {
    const [rawName = "", rawValue, ...rest] = entry.split("=").map((p) => p.trim());
    const name = rawName.toUpperCase();
    if (!(name in FLAGS)) throw new Error(`FEATURE_FLAGS names an unknown flag "${rawName}" (known: ${FLAG_NAMES.join(", ")}).`);
    const value = (rawValue ?? "").toLowerCase();
    if (rest.length > 0 || !(ON.has(value) || OFF.has(value))) throw new Error(`FEATURE_FLAGS: write ${name}=on or ${name}=off, not "${entry}".`);
    flags[name as FlagName] = ON.has(value);
  }
  return flags;
}
