import { useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Runs `open` once when the page's URL says ?new=<value> (the command palette links to /tasks?new=task,
 * /pipeline?new=deal), then drops the parameter (replace), so reload and back do not open it again.
 */
export function useOpenFromParam(value: string, open: () => void) {
  const [params, setParams] = useSearchParams();
  const wanted = params.get("new") === value;
  const latest = useRef(open);
  latest.current = open;
  useEffect(() => {
    if (!wanted) return;
    latest.current();
    setParams(
      (current) => {
        current.delete("new");
        return current;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [wanted, setParams]);
}

/** The hook as an element, for where `open` is only known inside a render prop. */
export function OpenFromParam({ value, open }: { value: string; open: () => void }) {
  useOpenFromParam(value, open);
  return null;
}
