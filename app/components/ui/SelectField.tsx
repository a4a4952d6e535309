import { useId } from "react";
import { FieldShell } from "./FieldShell";

export const SELECT_CLASS =
  "min-h-12 w-full rounded-lg border border-stone-300 bg-white px-3 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100";

/** A labelled select over [value, text] pairs, with an optional first choice such as "Any" or "Choose one". */
export function SelectField({
  label,
  name,
  options,
  defaultValue,
  error,
  placeholder,
  id,
  value,
  onChange,
}: {
  label: string;
  name: string;
  options: readonly (readonly [string, string])[];
  defaultValue?: string;
  error?: string;
  placeholder?: { label: string; disabled?: boolean };
  id?: string;
  /** Controlled use: value and onChange instead of defaultValue. */
  value?: string;
  onChange?: (event: React.ChangeEvent<HTMLSelectElement>) => void;
}) {
  const autoId = useId();
  return (
    <FieldShell id={id ?? autoId} label={label} error={error}>
      <select
        name={name}
        {...(value !== undefined ? { value, onChange } : { defaultValue: defaultValue ?? (placeholder ? "" : undefined), onChange })}
        className={SELECT_CLASS}
      >
        {placeholder ? (
          <option value="" disabled={placeholder.disabled}>
            {placeholder.label}
          </option>
        ) : null}
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

/** [value, label] pairs for an enum and its labels. */
export const choices = <T extends string>(values: readonly T[], labels: Record<T, string>) => values.map((value) => [value, labels[value]] as const);
