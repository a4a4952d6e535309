import { NavLink } from "@remix-run/react";
import type { NavItem } from "./nav";

/** Bottom bar on phones, side rail from md up. Same links, same order, active item marked for everyone. */
/** The main navigation; `adminItems` follow on wider screens (a phone's bar holds seven, admins use the palette there). */
export function AppNav({ items, adminItems = [] }: { items: NavItem[]; adminItems?: NavItem[] }) {
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-stone-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:inset-y-0 md:left-0 md:right-auto md:w-56 md:border-r md:border-t-0 md:pb-0 md:pt-20 dark:border-stone-800 dark:bg-stone-900/95"
    >
      <ul className="grid grid-cols-7 md:flex md:flex-col md:gap-1 md:px-3">
        {[...items.map((item) => ({ item, admin: false })), ...adminItems.map((item) => ({ item, admin: true }))].map(({ item: { to, label, icon: Icon, end }, admin }) => (
          <li key={to} className={admin ? "hidden md:block" : undefined}>
            <NavLink
              to={to}
              end={end}
              prefetch="intent"
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
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
