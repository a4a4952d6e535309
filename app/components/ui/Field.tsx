import { forwardRef, useId, type InputHTMLAttributes } from "react";
import { FieldShell } from "./FieldShell";

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: string;
}

/** A labelled text input with hint and error. */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field({ label, error, hint, id, className = "", ...rest }, ref) {
  const autoId = useId();
  return (
    <FieldShell id={id ?? autoId} label={label} error={error} hint={hint}>
      <input
        ref={ref}
        className={`min-h-12 rounded-lg border bg-white px-3 text-stone-900 placeholder:text-stone-400 dark:bg-stone-900 dark:text-stone-100 ${
          error ? "border-red-600 dark:border-red-400" : "border-stone-300 dark:border-stone-700"
        } ${className}`}
        {...rest}
      />
    </FieldShell>
  );
});
