import { useNavigate } from "@remix-run/react";
// The parts one by one: cmdk's `Command` object also carries its Radix-based Dialog, which we do not use.
import { CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList, CommandRoot, defaultFilter } from "cmdk";
import { KanbanSquare, Search, User, X, type LucideIcon } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { NavItem } from "~/components/shell/nav";
import { commandGroups, type CommandGroup as Group, type CommandRun } from "../commands";
import { PALETTE_QUERY_MAX, type PaletteSearchResult } from "../search";

// Only types from the layout's modules: what the layout has, it passes in, so this chunk shares no module with it.
export interface CommandPaletteProps {
  open: boolean;
  /** The layout's navigation, for "Go to". */
  navItems: NavItem[];
  /** Opens the Add New Contact dialog (it lives in the layout). */
  onAddContact: () => void;
  /** The dialog has closed, however it closed (Esc, the X, the backdrop, a command, the shortcut). */
  onClosed: () => void;
}

const SEARCH_URL = "/api/search";
const DEBOUNCE_MS = 150;
// cmdk's scorer rates a word-start match about 0.9 and initials ("nt": New task) about 0.9 too; letters
// scattered through other words score under 0.2 and only crowd the list ("octa" found "Import contacts").
const MIN_SCORE = 0.2;

type Found = PaletteSearchResult & { q: string; failed?: boolean };

/** The static commands matching `q`, best first within each group; all of them for an empty box. */
function matchingGroups(all: Group[], q: string) {
  if (!q) return all;
  return all
    .map((group) => ({
      heading: group.heading,
      commands: group.commands
        .map((command) => ({ command, score: defaultFilter(command.label, q, command.keywords) }))
        .filter((match) => match.score >= MIN_SCORE)
        .sort((a, b) => b.score - a.score)
        .map((match) => match.command),
    }))
    .filter((group) => group.commands.length > 0);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Ctrl/⌘K: go to a page, find a contact or deal, create something, start an AI quick action. A modal
 * <dialog> (the browser keeps focus inside, Esc closes it and focus goes back to where it was) around
 * cmdk's combobox and listbox. Contacts and deals come from GET /api/search as the user types.
 */
export function CommandPalette({ open, navItems, onAddContact, onClosed }: CommandPaletteProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const [search, setSearch] = useState("");
  const [found, setFound] = useState<Found | null>(null);
  const [selected, setSelected] = useState("");
  // Moved with the keyboard since the last keystroke: then arriving results leave the selection alone.
  const moved = useRef(false);
  const q = search.trim();
  const all = useMemo(() => commandGroups(navItems), [navItems]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setSearch("");
      setFound(null);
      element.showModal();
      input.current?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  // Debounced search; a newer keystroke aborts the request before it.
  useEffect(() => {
    if (!q) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`${SEARCH_URL}?q=${encodeURIComponent(q)}`, {
          signal: controller.signal,
          headers: { Accept: "application/json" },
        });
        if (!response.ok) throw new Error(`search answered ${response.status}`);
        const body = (await response.json()) as PaletteSearchResult;
        setFound({ q, ...body });
        // Someone typing a name means that record: select it, unless they already moved on their own.
        const first = body.contacts[0] ? `contact:${body.contacts[0].id}` : body.deals[0] ? `deal:${body.deals[0].id}` : null;
        if (first && !moved.current) setSelected(first);
      } catch {
        if (!controller.signal.aborted) setFound({ q, contacts: [], deals: [], failed: true });
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q]);

  const run = (action: CommandRun) => {
    dialog.current?.close();
    if ("addContact" in action) onAddContact();
    else navigate(action.to);
  };

  const current = found && found.q === q ? found : null;
  const searching = q !== "" && !current;
  const groups = matchingGroups(all, q);
  const total = groups.reduce((n, group) => n + group.commands.length, 0) + (current ? current.contacts.length + current.deals.length : 0);
  const announcement = !q || searching ? "" : total === 0 ? "No results" : plural(total, "result", "results");

  const records = current ? (
    <>
      {current.contacts.length > 0 ? (
        <CommandGroup heading="Contacts" className={GROUP_CLASS}>
          {current.contacts.map((contact) => (
            <PaletteItem
              key={contact.id}
              value={`contact:${contact.id}`}
              icon={User}
              label={contact.name}
              detail={contact.detail}
              onSelect={() => run({ to: `/contacts/${contact.id}` })}
            />
          ))}
        </CommandGroup>
      ) : null}
      {current.deals.length > 0 ? (
        <CommandGroup heading="Deals" className={GROUP_CLASS}>
          {current.deals.map((deal) => (
            <PaletteItem
              key={deal.id}
              value={`deal:${deal.id}`}
              icon={KanbanSquare}
              label={deal.title}
              detail={[deal.stage, deal.contactName].filter(Boolean).join(" · ")}
              onSelect={() => run({ to: `/deals/${deal.id}` })}
            />
          ))}
        </CommandGroup>
      ) : null}
    </>
  ) : null;

  return (
    // Escape closes a <dialog> natively; the click handler only adds closing by a click on the backdrop.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- see above
    <dialog
      ref={dialog}
      aria-label="Command palette"
      aria-modal="true"
      onClose={onClosed}
      // A click on the backdrop lands on the <dialog> itself.
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
      className="m-0 h-dvh max-h-none w-full max-w-none overflow-hidden bg-white p-0 text-stone-900 backdrop:bg-black/50 sm:mx-auto sm:mt-[12vh] sm:h-fit sm:max-h-[min(34rem,76vh)] sm:w-[min(40rem,calc(100vw-2rem))] sm:rounded-2xl sm:border sm:border-stone-200 sm:shadow-2xl dark:bg-stone-900 dark:text-stone-100 sm:dark:border-stone-700"
    >
      <CommandRoot
        label="Search commands, contacts and deals"
        shouldFilter={false}
        loop
        vimBindings={false}
        value={selected}
        onValueChange={setSelected}
        onKeyDown={(event) => {
          if (["ArrowDown", "ArrowUp", "Home", "End"].includes(event.key)) moved.current = true;
        }}
        className="flex h-full flex-col sm:h-auto sm:max-h-[inherit]"
      >
        <div className="flex items-center gap-2 border-b border-stone-200 pl-4 pr-1 pt-[env(safe-area-inset-top)] dark:border-stone-700">
          <Search aria-hidden="true" className="h-5 w-5 shrink-0 text-stone-500 dark:text-stone-400" />
          <CommandInput
            ref={input}
            value={search}
            onValueChange={(value) => {
              moved.current = false;
              setSearch(value);
            }}
            maxLength={PALETTE_QUERY_MAX}
            placeholder="Type a command or a name…"
            enterKeyHint="go"
            className="h-14 min-w-0 flex-1 bg-transparent text-base outline-none placeholder:text-stone-500 dark:placeholder:text-stone-400"
          />
          {searching ? (
            <span
              aria-hidden="true"
              className="h-4 w-4 shrink-0 animate-spin rounded-full border-2 border-brand-700 border-r-transparent dark:border-brand-400 dark:border-r-transparent"
            />
          ) : null}
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            aria-label="Close command palette"
            className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-lg text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800"
          >
            <X aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
        {current?.failed ? (
          <p className="border-b border-stone-200 px-4 py-2 text-sm text-red-700 dark:border-stone-700 dark:text-red-400">
            Contacts and deals could not be searched. Check your connection and try again.
          </p>
        ) : null}
        <CommandList label="Commands, contacts and deals" className="min-h-0 flex-1 overflow-y-auto overscroll-contain p-2">
          {records}
          {groups.map((group) => (
            <CommandGroup key={group.heading} heading={group.heading} className={GROUP_CLASS}>
              {group.commands.map((command) => (
                <PaletteItem key={command.id} value={command.id} icon={command.icon} label={command.label} onSelect={() => run(command.run)} />
              ))}
            </CommandGroup>
          ))}
          <CommandEmpty className="px-3 py-8 text-center text-stone-600 dark:text-stone-400">
            {searching ? "Searching…" : `Nothing matches “${q}”. Try a contact’s name, a deal’s title or a page.`}
          </CommandEmpty>
        </CommandList>
        <div role="status" className="sr-only">
          {announcement}
        </div>
        <p
          aria-hidden="true"
          className="hidden gap-4 border-t border-stone-200 px-4 py-2 text-xs text-stone-600 sm:flex dark:border-stone-700 dark:text-stone-400"
        >
          <span>
            <Key>↑</Key> <Key>↓</Key> to move
          </span>
          <span>
            <Key>Enter</Key> to open
          </span>
          <span>
            <Key>Esc</Key> to close
          </span>
        </p>
      </CommandRoot>
    </dialog>
  );
}

const GROUP_CLASS =
  "mb-1 [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:uppercase [&_[cmdk-group-heading]]:tracking-wide [&_[cmdk-group-heading]]:text-stone-600 dark:[&_[cmdk-group-heading]]:text-stone-400";

function PaletteItem({
  value,
  icon: Icon,
  label,
  detail,
  onSelect,
}: {
  value: string;
  icon: LucideIcon;
  label: string;
  detail?: string | null;
  onSelect: () => void;
}) {
  return (
    <CommandItem
      value={value}
      onSelect={onSelect}
      className="group flex min-h-12 cursor-pointer items-center gap-3 rounded-lg px-3 py-1 text-base data-[selected=true]:bg-brand-50 data-[selected=true]:text-stone-950 md:min-h-11 dark:data-[selected=true]:bg-stone-800 dark:data-[selected=true]:text-stone-50"
    >
      <Icon
        aria-hidden="true"
        className="h-5 w-5 shrink-0 text-stone-500 group-data-[selected=true]:text-brand-700 dark:text-stone-400 dark:group-data-[selected=true]:text-brand-400"
      />
      {/* On a phone the detail goes under the name, so neither is cut short. */}
      <span className="flex min-w-0 flex-1 flex-col sm:flex-row sm:items-center sm:gap-3">
        <span className="truncate sm:flex-1">{label}</span>
        {detail ? <span className="truncate text-sm text-stone-600 sm:max-w-[45%] dark:text-stone-400">{detail}</span> : null}
      </span>
    </CommandItem>
  );
}

function Key({ children }: { children: ReactNode }) {
  return <kbd className="rounded border border-stone-300 px-1 font-sans dark:border-stone-600">{children}</kbd>;
}
