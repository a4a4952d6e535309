import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import type { MergeValues } from "./merge";

/** The merge values of one of the agent's contacts, read from the server (null while reading). */
export function useMergeValues(contactId: string): MergeValues | null {
  const fetcher = useFetcher<{ values: MergeValues }>();
  const { load } = fetcher;
  useEffect(() => {
    if (contactId) load(`/templates/merge/${contactId}`);
  }, [contactId, load]);
  return fetcher.state === "idle" && fetcher.data && "values" in fetcher.data ? fetcher.data.values : null;
}
