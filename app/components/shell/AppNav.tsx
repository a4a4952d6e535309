import { NavLink } from "@remix-run/react";
import type { NavItem } from "./nav";

/** A link's accessible name: its label, and what its badge counts when there is one ("Operations, 2 open alerts"). */
export const navName = (item: Pick<NavItem, "label" | "badge">) => (item.badge && item.badge.count > 0 ? `${item.label}, ${item.badge.label}` : undefined);

/** A count beside a link's label (nothing at 0); screen readers hear it in the link's name (navName) instead. */
export function NavBadge({ badge, className = "" }: { badge: NavItem["badge"]; className?: string }) {
  if (!badge || badge.count <= 0) return null;
  return (
    <span aria-hidden="true" className={`inline-flex min-w-5 items-center justify-center rounded-full bg-red-700 px-1.5 text-xs font-bold leading-5 text-white dark:bg-red-400 dark:text-stone-950 ${className}`}>
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
        {[...items.map((item) => ({ item, admin: false })), ...adminItems.map((item) => ({ item, admin: true }))].map(({ item: { to, label, icon: Icon, end, badge }, admin }) => (
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
        ))}
      </ul>
    </nav>
  );
}

/**
 * The phone's way to the Operations Center: its bottom bar holds the seven items everyone has, so an admin's
 * Operations link (with the open alerts' count) sits in the header there. Hidden from md up, where the rail has it.
 */
export function PhoneAdminNav({ item }: { item: NavItem }) {
  const Icon = item.icon;
  return (
    <nav aria-label="Admin" className="md:hidden">
      <NavLink
        to={item.to}
        prefetch="intent"
        aria-label={navName(item) ?? item.label}
        className={({ isActive }) =>
          `relative inline-flex h-12 w-12 items-center justify-center rounded-lg hover:bg-stone-100 dark:hover:bg-stone-800 ${isActive ? "text-brand-700 dark:text-brand-400" : "text-stone-700 dark:text-stone-200"}`
        }
      >
        <Icon aria-hidden="true" className="h-5 w-5" />
        <NavBadge badge={item.badge} className="absolute right-0.5 top-0.5" />
      </NavLink>
    </nav>
  );
}
