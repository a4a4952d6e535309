import { useEffect, useId, useRef, useState } from "react";
import type { ContactOption } from "~/modules/contacts/contact.schema";
import { PICKER_SCOPE, type PickerSearchResult } from "~/modules/palette/search";

const SEARCH_URL = `/api/search?scope=${PICKER_SCOPE}`;

/**
 * The deal's contact: a combobox (ARIA 1.2 list autocomplete) that searches the user's contacts as they
 * type and submits the chosen id as `name`. Arrow keys move, Enter chooses, Escape closes.
 */
export function ContactPicker({
  name,
  initial,
  error,
  onPick,
}: {
  name: string;
  initial: { id: string; name: string } | null;
  error?: string;
  /** Called after a contact is chosen or the choice is cleared (the hidden input has its new value). */
  onPick?: (contact: { id: string; name: string } | null) => void;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [chosen, setChosen] = useState(initial);
  const [query, setQuery] = useState(initial?.name ?? "");
  const [options, setOptions] = useState<ContactOption[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [loading, setLoading] = useState(false);
  const request = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(async () => {
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      setLoading(true);
      try {
        const response = await fetch(`${SEARCH_URL}&q=${encodeURIComponent(chosen && query === chosen.name ? "" : query)}`, {
          signal: controller.signal,
        });
        const body = (await response.json()) as Partial<PickerSearchResult>;
        setOptions(body.contacts ?? []);
        setActive(-1);
      } catch {
        // Aborted by the next keystroke, or offline: keep what is shown.
      } finally {
        if (request.current === controller) setLoading(false);
      }
    }, 200);
    return () => clearTimeout(timer);
  }, [query, open, chosen]);

  const picked = useRef<{ id: string; name: string } | null | undefined>(undefined);
  useEffect(() => {
    if (picked.current === undefined) return;
    onPick?.(picked.current);
    picked.current = undefined;
  }, [chosen, onPick]);
  const choose = (option: ContactOption) => {
    picked.current = { id: option.id, name: option.name };
    setChosen(picked.current);
    setQuery(option.name);
    setOpen(false);
  };

  return (
    <div className="relative flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        Contact
      </label>
      <input type="hidden" name={name} value={chosen?.id ?? ""} />
      <input
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        autoComplete="off"
        value={query}
        placeholder="Search your contacts"
        onChange={(event) => {
          setQuery(event.target.value);
          if (chosen && event.target.value !== chosen.name) {
            picked.current = event.target.value === "" ? null : undefined;
            setChosen(null);
          }
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") {
            event.preventDefault();
            setOpen(true);
            setActive((i) => Math.min(options.length - 1, i + 1));
          } else if (event.key === "ArrowUp") {
            event.preventDefault();
            setActive((i) => Math.max(0, i - 1));
          } else if (event.key === "Enter" && open && active >= 0 && options[active]) {
            event.preventDefault();
            choose(options[active]!);
          } else if (event.key === "Escape" && open) {
            event.preventDefault();
            event.stopPropagation();
            setOpen(false);
          }
        }}
        className={`min-h-12 rounded-lg border bg-white px-3 text-stone-900 placeholder:text-stone-400 dark:bg-stone-900 dark:text-stone-100 ${error ? "border-red-600 dark:border-red-400" : "border-stone-300 dark:border-stone-700"}`}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-sm text-stone-600 dark:text-stone-400">
          {chosen ? `Linked to ${chosen.name}.` : "Optional. Type a name, e-mail or phone."}
        </p>
      )}
      {open ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="Contacts"
          className="absolute inset-x-0 top-[4.75rem] z-20 max-h-64 overflow-y-auto rounded-lg border border-stone-300 bg-white shadow-lg dark:border-stone-700 dark:bg-stone-900"
        >
          {options.map((option, index) => (
            // The keyboard picks an option from the combobox input (arrows and Enter, aria-activedescendant).
            // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- see above
            <li
              key={option.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option)}
              className={`cursor-pointer px-3 py-2 ${index === active ? "bg-brand-100 dark:bg-brand-800/50" : "hover:bg-stone-100 dark:hover:bg-stone-800"}`}
            >
              <span className="block font-medium">{option.name}</span>
              {option.detail ? <span className="block text-sm text-stone-600 dark:text-stone-400">{option.detail}</span> : null}
            </li>
          ))}
          {options.length === 0 ? (
            <li className="px-3 py-2 text-sm text-stone-600 dark:text-stone-400">{loading ? "Searching…" : "No contacts match."}</li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
