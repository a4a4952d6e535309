import { useFetcher } from "@remix-run/react";
import { LayoutGrid, List } from "lucide-react";
import { layoutOn } from "../list-layout";
import type { ContactsView } from "../view.server";

/** The contact list's layout, density and detail toggles, each saved as the agent's own view. */
export function ViewToggles({ view }: { view: ContactsView }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData ? (Object.fromEntries(fetcher.formData) as Partial<ContactsView>) : {};
  const current = { ...view, ...pending };
  // Each button is a toggle: pressed when its choice is the current one; pressing it switches to it (or back).
  const button = (field: keyof ContactsView, value: string, pressed: boolean, label: React.ReactNode, title: string) => (
    <fetcher.Form method="post" key={`${field}-${title}`}>
      <input type="hidden" name="intent" value="view" />
      <button
        type="submit"
        name={field}
        value={value}
        aria-pressed={pressed}
        title={title}
        className={`inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-lg border px-2 text-sm font-medium ${
          pressed
            ? "border-stone-900 bg-stone-900 text-white dark:border-stone-100 dark:bg-stone-100 dark:text-stone-900"
            : "border-stone-300 bg-white text-stone-700 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-300"
        }`}
      >
        {label}
      </button>
    </fetcher.Form>
  );
  // Table and Cards show what this screen shows (list-layout.ts), so there is one pair for phones and one for
  // wider screens, each hidden on the other. Pressing the layout already shown keeps the saved choice as it is:
  // only a change is remembered as the agent's own.
  const layoutButtons = (screen: "phone" | "wide") =>
    (["table", "cards"] as const).map((layout) => {
      const shown = layoutOn(screen, current.contactsLayout) === layout;
      const Icon = layout === "table" ? List : LayoutGrid;
      const name = layout === "table" ? "Table" : "Cards";
      return button(
        "contactsLayout",
        shown ? current.contactsLayout : layout,
        shown,
        <>
          <Icon aria-hidden="true" className="h-5 w-5" />
          <span className="sr-only">{name}</span>
        </>,
        name,
      );
    });
  return (
    <div className="flex flex-wrap items-center gap-1" aria-label="View options" role="group">
      <div className="flex gap-1 md:hidden">{layoutButtons("phone")}</div>
      <div className="hidden gap-1 md:flex">{layoutButtons("wide")}</div>
      {button(
        "contactsDensity",
        current.contactsDensity === "compact" ? "comfortable" : "compact",
        current.contactsDensity === "compact",
        "Compact",
        "Compact rows",
      )}
      {button(
        "contactsDetail",
        current.contactsDetail === "full" ? "summary" : "full",
        current.contactsDetail === "full",
        "Full detail",
        "Show more fields",
      )}
    </div>
  );
}
