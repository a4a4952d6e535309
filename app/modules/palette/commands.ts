import {
  Activity,
  Calculator,
  CalendarRange,
  CopyCheck,
  FileUp,
  Handshake,
  ListPlus,
  Mail,
  MapPin,
  NotebookPen,
  ShieldAlert,
  UserPlus,
  type LucideIcon,
} from "lucide-react";
import type { NavItem } from "~/components/shell/nav";
import type { QuickTask } from "~/modules/ai/draft-types";

/** What a command does: go to a page, or open the Add New Contact dialog (it lives in the layout). */
export type CommandRun = { to: string } | { addContact: true };

interface PaletteCommand {
  id: string;
  label: string;
  icon: LucideIcon;
  /** Other words that find it. */
  keywords?: string[];
  run: CommandRun;
}

/** The AI assistant's quick actions; /ai-assistant?quick=<id> starts one. */
const AI_QUICK_ACTIONS = [
  { id: "follow_up", label: "Draft a follow-up for a hot lead", icon: Mail, keywords: ["email", "message", "lead"] },
  { id: "listing", label: "Write a listing description", icon: NotebookPen, keywords: ["property", "mls", "copy"] },
  { id: "market", label: "Market insight for a location", icon: MapPin, keywords: ["area", "prices", "neighborhood"] },
  { id: "deal_review", label: "Review at-risk deals", icon: ShieldAlert, keywords: ["pipeline", "risk", "stalled"] },
  { id: "week_plan", label: "Plan my week", icon: CalendarRange, keywords: ["schedule", "tasks", "priorities"] },
] as const satisfies readonly (Omit<PaletteCommand, "run"> & { id: QuickTask })[];

export interface CommandGroup {
  heading: string;
  commands: PaletteCommand[];
}

/** Every static command, in groups: the layout's navigation (passed in, so this chunk never imports the layout's modules) and more. */
export const commandGroups = (navItems: NavItem[]): CommandGroup[] => [
  {
    heading: "Go to",
    commands: [
      ...navItems.map(({ to, label, icon }) => ({ id: `go:${to}`, label, icon, run: { to } })),
      { id: "go:commissions", label: "Commissions", icon: Calculator, keywords: ["forecast", "pipeline"], run: { to: "/pipeline/commissions" } },
      { id: "go:activity", label: "Activity", icon: Activity, keywords: ["history", "timeline"], run: { to: "/activities" } },
      { id: "go:duplicates", label: "Duplicates", icon: CopyCheck, keywords: ["merge", "contacts"], run: { to: "/contacts/duplicates" } },
      { id: "go:import", label: "Import contacts", icon: FileUp, keywords: ["csv", "upload"], run: { to: "/contacts/import" } },
    ],
  },
  {
    heading: "Create",
    commands: [
      { id: "new:contact", label: "New contact", icon: UserPlus, keywords: ["add", "lead", "client"], run: { addContact: true } },
      { id: "new:deal", label: "New deal", icon: Handshake, keywords: ["add", "pipeline"], run: { to: "/pipeline?new=deal" } },
      { id: "new:task", label: "New task", icon: ListPlus, keywords: ["add", "reminder", "to do"], run: { to: "/tasks?new=task" } },
    ],
  },
  {
    heading: "AI quick actions",
    commands: AI_QUICK_ACTIONS.map(({ id, label, icon, keywords }) => ({
      id: `ai:${id}`,
      label,
      icon,
      keywords: ["ai", ...keywords],
      run: { to: `/ai-assistant?quick=${id}` },
    })),
  },
];
