import { X } from "lucide-react";
import { useId, useState } from "react";

/** Tags as chips: Enter or comma adds the typed tag, Backspace in an empty box removes the last one. */
export function TagInput({ tags, onChange, label = "Tags" }: { tags: string[]; onChange: (tags: string[]) => void; label?: string }) {
  const [draft, setDraft] = useState("");
  const id = useId();
  const add = () => {
    const tag = draft.trim().replace(/\s+/g, " ");
    if (tag && !tags.some((t) => t.toLowerCase() === tag.toLowerCase())) onChange([...tags, tag]);
    setDraft("");
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        {label}
      </label>
      <div className="flex min-h-12 flex-wrap items-center gap-2 rounded-lg border border-stone-300 bg-white px-2 py-1.5 dark:border-stone-700 dark:bg-stone-900">
        {tags.map((tag) => (
          <span
            key={tag}
            className="inline-flex items-center gap-1 rounded-full bg-brand-100 py-0.5 pl-3 pr-1 text-sm text-brand-800 dark:bg-brand-800 dark:text-brand-50"
          >
            {tag}
            <button
              type="button"
              onClick={() => onChange(tags.filter((t) => t !== tag))}
              className="inline-flex h-7 w-7 items-center justify-center rounded-full hover:bg-black/10"
              aria-label={`Remove tag ${tag}`}
            >
              <X aria-hidden="true" className="h-4 w-4" />
            </button>
          </span>
        ))}
        <input
          id={id}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" || event.key === ",") {
              event.preventDefault();
              add();
            } else if (event.key === "Backspace" && draft === "" && tags.length > 0) {
              onChange(tags.slice(0, -1));
            }
          }}
          onBlur={add}
          aria-describedby={`${id}-hint`}
          className="min-h-9 min-w-24 flex-1 bg-transparent px-1 text-stone-900 outline-none dark:text-stone-100"
        />
      </div>
      <p id={`${id}-hint`} className="text-sm text-stone-600 dark:text-stone-400">
        Press Enter to add a tag.
      </p>
      {tags.map((tag) => (
        <input key={tag} type="hidden" name="tags" value={tag} />
      ))}
    </div>
  );
}
