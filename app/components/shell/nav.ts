import {
  Activity,
  Bot,
  Columns3,
  Handshake,
  Inbox,
  Trophy,
  ChartColumn,
  CircleCheckBig,
  KanbanSquare,
  LayoutDashboard,
  ListChecks,
  Settings,
  FileText,
  ShieldCheck,
  Users,
  type LucideIcon,
} from "lucide-react";

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Active only on this exact path, not the pages below it. */
  end?: boolean;
  /** A count shown beside the label (none at 0), and what it counts for screen readers: "2 open alerts". */
  badge?: { count: number; label: string };
}

// Spec: the signed-in bottom navigation, in this order.
export const NAV_ITEMS: NavItem[] = [
  { to: "/dashboard", label: "Dashboard", icon: LayoutDashboard },
  { to: "/contacts", label: "Contacts", icon: Users },
  { to: "/pipeline", label: "Pipeline", icon: KanbanSquare },
  { to: "/tasks", label: "Tasks", icon: CircleCheckBig },
  { to: "/reports", label: "Reports", icon: ChartColumn },
  { to: "/ai-assistant", label: "AI Assistant", icon: Bot },
  { to: "/settings", label: "Settings", icon: Settings },
];

/** Everyone's, after the bottom navigation's (in More on a phone): the follow-up tools. */
export const FOLLOW_UP_NAV_ITEMS: NavItem[] = [
  { to: "/templates", label: "Templates", icon: FileText },
  { to: "/plans", label: "Action plans", icon: ListChecks },
];

/** Members of a team on a team plan: their team. After everyone's, like the admin items. */
const TEAM_NAV_ITEMS: (NavItem & { sellers?: true })[] = [
  { to: "/team", label: "Team", icon: Handshake, end: true },
  { to: "/team/pipeline", label: "Team pipeline", icon: Columns3, sellers: true },
  { to: "/team/leads", label: "Team leads", icon: Inbox },
  { to: "/team/leaderboard", label: "Leaderboard", icon: Trophy, sellers: true },
];

/**
 * The team items for a member's role (none outside a team): an ISA has no part in the team's deals or commissions, so
 * their navigation has no team pipeline or leaderboard (those pages answer 404 for them).
 */
export const teamNavItems = (role: string | null | undefined): NavItem[] =>
  !role ? [] : TEAM_NAV_ITEMS.filter((item) => role !== "isa" || !item.sellers).map(({ sellers: _, ...item }) => item);

/** Admin-only items, after everyone's (navigation and the command palette); others get 404 at these paths. */
const ADMIN_NAV_ITEMS: NavItem[] = [
  { to: "/operations", label: "Operations", icon: Activity },
  { to: "/admin", label: "Admin", icon: ShieldCheck },
];

/** The admin items with the Operations link carrying the number of open alerts. */
export function adminNavItems(openAlerts: number): NavItem[] {
  const badge = { count: openAlerts, label: `${openAlerts} open ${openAlerts === 1 ? "alert" : "alerts"}` };
  return ADMIN_NAV_ITEMS.map((item) => (item.to === "/operations" ? { ...item, badge } : item));
}
