import type { FairHousingFlag } from "../draft-types";

/** The Fair Housing check's flagged phrases, each with why and a one-tap rewording (AI drafts, e-mails to contacts). */
export function FairHousingFlags({ flags, onApply }: { flags: FairHousingFlag[]; onApply: (flag: FairHousingFlag) => void }) {
  return (
    <div
      role="region"
      aria-label="Fair Housing check"
      className="mt-3 rounded-lg border border-amber-400 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950"
    >
      <p className="font-semibold text-amber-950 dark:text-amber-100">
        Fair Housing check: {flags.length === 1 ? "1 phrase" : `${flags.length} phrases`} to reword
      </p>
      <ul className="mt-2 space-y-2 text-sm text-amber-950 dark:text-amber-100">
        {flags.map((flag) => (
          <li key={`${flag.index}-${flag.phrase}`}>
            <span className="font-semibold">“{flag.phrase}”</span>: {flag.reason}
            {flag.suggestion ? <> Try “{flag.suggestion}”.</> : <> Remove it.</>}{" "}
            <button
              type="button"
              className="ml-1 inline-flex min-h-10 items-center rounded-md border border-amber-600 px-2 font-semibold underline-offset-2 hover:bg-amber-100 dark:border-amber-500 dark:hover:bg-amber-900"
              onClick={() => onApply(flag)}
            >
              {flag.suggestion ? "Use suggestion" : "Remove phrase"}
              <span className="sr-only"> for “{flag.phrase}”</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
