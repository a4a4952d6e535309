import { useEffect, useRef } from "react";

/**
 * Runs `onResult` once for each answer a fetcher settles with (toasts, closing a dialog, rolling back),
 * never again for the same answer on a later render.
 */
export function useFetcherResult<T>(fetcher: { data: T | undefined; state: string }, onResult: (result: T) => void) {
  const handled = useRef<unknown>(undefined);
  const callback = useRef(onResult);
  callback.current = onResult;
  useEffect(() => {
    const result = fetcher.data;
    if (result === undefined || fetcher.state !== "idle" || handled.current === result) return;
    handled.current = result;
    callback.current(result);
  }, [fetcher.data, fetcher.state]);
}
