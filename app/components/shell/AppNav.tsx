import { NavLink } from "@remix-run/react";
import { Menu } from "lucide-react";
import { MENU_ITEM_CLASS, OverflowMenu } from "~/components/ui/OverflowMenu";
import type { NavItem } from "./nav";

/** A link's accessible name: its label, and what its badge counts when there is one ("Operations, 2 open alerts"). */
const navName = (item: Pick<NavItem, "label" | "badge">) => (item.badge && item.badge.count > 0 ? `${item.label}, ${item.badge.label}` : undefined);

/** A count beside a link's label (nothing at 0); screen readers hear it in the link's name (navName) instead. */
function NavBadge({ badge, className = "" }: { badge: NavItem["badge"]; className?: string }) {
  if (!badge || badge.count <= 0) return null;
  return (
    <span
      aria-hidden="true"
      className={`inline-flex min-w-5 items-center justify-center rounded-full bg-red-700 px-1.5 text-xs font-bold leading-5 text-white dark:bg-red-400 dark:text-stone-950 ${className}`}
    >
      {badge.count > 99 ? "99+" : badge.count}
    </span>
  );
}

/** Bottom bar on phones, side rail from md up. Same links, same order, active item marked for everyone. */
/** The main navigation; `adminItems` follow on wider screens (a phone's bar holds seven: admins reach theirs from the header and the palette). */
export function AppNav({ items, adminItems = [] }: { items: NavItem[]; adminItems?: NavItem[] }) {
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-stone-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:inset-y-0 md:left-0 md:right-auto md:w-56 md:border-r md:border-t-0 md:pb-0 md:pt-20 dark:border-stone-800 dark:bg-stone-900/95"
    >
      <ul className="grid grid-cols-7 md:flex md:flex-col md:gap-1 md:px-3">
        {[...items.map((item) => ({ item, admin: false })), ...adminItems.map((item) => ({ item, admin: true }))].map(
          ({ item: { to, label, icon: Icon, end, badge }, admin }) => (
            <li key={to} className={admin ? "hidden md:block" : undefined}>
              <NavLink
                to={to}
                end={end}
                prefetch="intent"
                aria-label={navName({ label, badge })}
                className={({ isActive }) =>
                  `flex min-h-14 flex-col items-center justify-center gap-0.5 px-0 text-[10px] font-medium leading-[1.1] md:min-h-12 md:flex-row md:justify-start md:gap-3 md:rounded-lg md:px-3 md:text-sm ${
                    isActive
                      ? "text-brand-700 md:bg-brand-50 dark:text-brand-400 md:dark:bg-stone-800"
                      : "text-stone-600 hover:text-stone-900 md:hover:bg-stone-100 dark:text-stone-400 dark:hover:text-stone-100 md:dark:hover:bg-stone-800"
                  }`
                }
              >
                {({ isActive }) => (
                  <>
                    <Icon aria-hidden="true" className="h-5 w-5 shrink-0" strokeWidth={isActive ? 2.5 : 2} />
                    <span className="max-w-full text-center md:text-left">{label}</span>
                    <NavBadge badge={badge} className="md:ml-auto" />
                  </>
                )}
              </NavLink>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

/**
 * On phones, the pages past the bottom bar's seven (the team's and an admin's) are a "More" menu in the header: the
 * rail has them from md up. The button carries the open alerts' count when there are any.
 */
export function PhoneMoreNav({ items }: { items: NavItem[] }) {
  if (items.length === 0) return null;
  const alerts = items.find((item) => item.badge && item.badge.count > 0)?.badge;
  return (
    <nav aria-label="More pages" className="md:hidden">
      <OverflowMenu
        label={alerts ? `More pages, ${alerts.label}` : "More pages"}
        trigger={{
          className:
            "relative inline-flex h-12 w-12 items-center justify-center rounded-lg text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800",
          content: (
            <>
              <Menu aria-hidden="true" className="h-5 w-5" />
              {alerts ? <NavBadge badge={alerts} className="absolute right-0.5 top-0.5" /> : null}
            </>
          ),
        }}
      >
        {items.map(({ to, label, icon: Icon, end, badge }) => (
          <NavLink
            key={to}
            to={to}
            end={end}
            prefetch="intent"
            aria-label={navName({ label, badge })}
            className={({ isActive }) => `${MENU_ITEM_CLASS} ${isActive ? "text-brand-700 dark:text-brand-400" : ""}`}
          >
            <Icon aria-hidden="true" className="h-5 w-5 shrink-0" />
            <span>{label}</span>
            <NavBadge badge={badge} className="ml-auto" />
          </NavLink>
        ))}
      </OverflowMenu>
    </nav>
  );
}
