import { Link } from "@remix-run/react";
import { BookOpen, CopyCheck, Download, Upload, UserPlus } from "lucide-react";
import { useRef } from "react";
import { buttonClass } from "~/components/ui/Button";
import { MENU_ITEM_CLASS, OverflowMenu } from "~/components/ui/OverflowMenu";
import { GuideModal } from "~/modules/guides/components/GuideDialog";

/**
 * The contact list's header actions. From md up all of them sit in a row; on a phone "Add contact" and a
 * "More" menu (import, duplicates, export, guide), so the header takes one row instead of three.
 */
export function ContactsHeaderActions({ count, exportHref, onAdd }: { count: number; exportHref: string; onAdd: () => void }) {
  const guide = useRef<HTMLDialogElement>(null);
  const more = useRef<HTMLDivElement>(null);
  const fromMenu = useRef(false);
  const openGuide = (menu: boolean) => {
    fromMenu.current = menu;
    guide.current?.showModal();
  };
  const others = [
    {
      key: "import",
      to: "/contacts/import",
      label: "Import",
      icon: Upload,
      shown: true,
    },
    {
      key: "duplicates",
      to: "/contacts/duplicates",
      label: "Find duplicates",
      icon: CopyCheck,
      shown: count > 1,
    },
  ].filter((item) => item.shown);
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" onClick={onAdd} className={buttonClass("primary")}>
        <UserPlus aria-hidden="true" className="h-5 w-5" />
        Add contact
      </button>
      <div className="hidden flex-wrap gap-2 md:flex">
        {others.map(({ key, to, label, icon: Icon }) => (
          <Link key={key} to={to} className={buttonClass("secondary")}>
            <Icon aria-hidden="true" className="h-5 w-5" />
            {label}
          </Link>
        ))}
        {count > 0 ? (
          <a href={exportHref} download className={buttonClass("secondary")}>
            <Download aria-hidden="true" className="h-5 w-5" />
            Export CSV
          </a>
        ) : null}
        <button type="button" onClick={() => openGuide(false)} aria-haspopup="dialog" className={buttonClass("secondary")}>
          <BookOpen aria-hidden="true" className="h-5 w-5" />
          Guide
        </button>
      </div>
      <div ref={more} className="md:hidden">
        <OverflowMenu label="More">
          {others.map(({ key, to, label, icon: Icon }) => (
            <Link key={key} to={to} className={MENU_ITEM_CLASS}>
              <Icon aria-hidden="true" className="h-5 w-5" />
              {label}
            </Link>
          ))}
          {count > 0 ? (
            <a href={exportHref} download className={MENU_ITEM_CLASS}>
              <Download aria-hidden="true" className="h-5 w-5" />
              Export CSV
            </a>
          ) : null}
          <button type="button" onClick={() => openGuide(true)} aria-haspopup="dialog" className={MENU_ITEM_CLASS}>
            <BookOpen aria-hidden="true" className="h-5 w-5" />
            Guide
          </button>
        </OverflowMenu>
      </div>
      {/* Opened from the menu, whose item is gone once it closes: focus goes back to More. */}
      <GuideModal
        ref={guide}
        page="contacts"
        onClose={() => fromMenu.current && more.current?.querySelector<HTMLElement>("button[aria-expanded]")?.focus()}
      />
    </div>
  );
}
