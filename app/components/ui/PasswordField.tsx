import { Eye, EyeOff } from "lucide-react";
import { forwardRef, useId, useState } from "react";
import { FieldShell } from "./FieldShell";
import type { FieldProps } from "./Field";

/**
 * A password input with a show/hide toggle (a pressed-state button, so screen readers hear "Show password,
 * toggle button, pressed") and, when minLength is given, a length check as the agent types once the field
 * has been left, or as soon as the typed value is long enough, instead of only after submit.
 */
export const PasswordField = forwardRef<HTMLInputElement, FieldProps & { tooShortMessage?: string }>(function PasswordField(
  { label, error, hint, id, minLength, tooShortMessage, onBlur, onChange, ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const [shown, setShown] = useState(false);
  const [value, setValue] = useState("");
  const [touched, setTouched] = useState(false);
  const tooShort = minLength !== undefined && value.length > 0 && value.length < minLength;
  const liveError = touched && tooShort ? (tooShortMessage ?? `Password must be at least ${minLength} characters.`) : undefined;
  const shownError = liveError ?? error;
  return (
    <FieldShell id={inputId} label={label} error={shownError} hint={hint}>
      <PasswordInput
        ref={ref}
        {...rest}
        minLength={minLength}
        type={shown ? "text" : "password"}
        invalid={Boolean(shownError)}
        shown={shown}
        onToggle={() => setShown((s) => !s)}
        onChange={(event) => {
          setValue(event.target.value);
          // Once long enough, say so at once; a short value is only flagged after the field is left.
          if (minLength !== undefined && event.target.value.length >= minLength) setTouched(true);
          onChange?.(event);
        }}
        onBlur={(event) => {
          if (event.target.value.length > 0) setTouched(true);
          onBlur?.(event);
        }}
      />
    </FieldShell>
  );
});

type InputProps = React.InputHTMLAttributes<HTMLInputElement> & { invalid: boolean; shown: boolean; onToggle?: () => void };

/**
 * The input and its toggle in one box. FieldShell puts id and aria-* on this element; they go to the input. The icon
 * follows the toggle's aria-pressed in CSS, so a page served without React (/auth) can drive it from a small script.
 */
export const PasswordInput = forwardRef<HTMLInputElement, InputProps>(function PasswordInput(
  { invalid, shown, onToggle, className = "", ...input },
  ref,
) {
  return (
    <div className="relative">
      <input
        ref={ref}
        autoCapitalize="none"
        spellCheck={false}
        className={`min-h-12 w-full rounded-lg border bg-white pl-3 pr-14 text-stone-900 placeholder:text-stone-400 dark:bg-stone-900 dark:text-stone-100 ${
          invalid ? "border-red-600 dark:border-red-400" : "border-stone-300 dark:border-stone-700"
        } ${className}`}
        {...input}
      />
      <button
        type="button"
        aria-label="Show password"
        aria-pressed={shown}
        aria-controls={input.id}
        onClick={onToggle}
        className="group absolute inset-y-0 right-0 inline-flex w-12 items-center justify-center rounded-r-lg text-stone-600 hover:text-stone-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-300 dark:hover:text-stone-100"
      >
        <Eye aria-hidden="true" className="h-5 w-5 group-aria-pressed:hidden" />
        <EyeOff aria-hidden="true" className="hidden h-5 w-5 group-aria-pressed:block" />
      </button>
    </div>
  );
});
