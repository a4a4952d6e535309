import { Copy } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./Button";
import { toast } from "./Toaster";

/**
 * A value to copy (a private address, a key): read-only, selected on focus, with a Copy button that says whether it
 * worked. `children` go beside the button (another action on the same value).
 */
export function CopyField({
  id,
  label,
  labelClassName = "text-sm font-medium",
  value,
  buttonLabel,
  copied,
  inputClassName = "bg-stone-50 dark:bg-stone-950",
  children,
}: {
  id: string;
  label: string;
  labelClassName?: string;
  value: string;
  buttonLabel: string;
  /** The toast's title once copied ("Address copied"). */
  copied: string;
  inputClassName?: string;
  children?: ReactNode;
}) {
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => toast({ title: copied, variant: "success" }),
      () => toast({ title: "Copy did not work", description: "Select it and copy it yourself.", variant: "destructive" }),
    );
  return (
    <>
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className={`min-h-12 min-w-0 flex-1 rounded-lg border border-stone-300 px-3 font-mono text-sm dark:border-stone-700 ${inputClassName}`}
        />
        <div className="flex gap-2">
          <Button type="button" variant="secondary" onClick={copy}>
            <Copy aria-hidden="true" className="h-5 w-5" />
            {buttonLabel}
          </Button>
          {children}
        </div>
      </div>
    </>
  );
}
