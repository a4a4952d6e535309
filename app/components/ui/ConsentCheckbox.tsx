/**
 * The consent checkbox of the public forms (/contact, a team's lead form): its label, and the message that says it is
 * needed, tied to it for screen readers while shown. `message` is always rendered (hidden unless `shown`), so a
 * static page's inline script can show it without the server.
 */
export function ConsentCheckbox({
  label,
  message,
  shown,
  defaultChecked,
}: {
  label: string;
  message: string;
  shown: boolean;
  defaultChecked: boolean;
}) {
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id="consent"
          name="consent"
          type="checkbox"
          defaultChecked={defaultChecked}
          className="mt-1 h-5 w-5 accent-brand-700"
          aria-invalid={shown || undefined}
          aria-describedby={shown ? "consent-error" : undefined}
        />
        <label htmlFor="consent">{label}</label>
      </div>
      <p id="consent-error" role="alert" hidden={!shown} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
        {message}
      </p>
    </div>
  );
}
