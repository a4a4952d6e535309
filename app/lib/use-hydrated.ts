import { useEffect, useState } from "react";

/**
 * False in the server's HTML and until React has hydrated the page, then true. Controls that only work with
 * the app's scripts (a switch that saves on change, a field that saves on blur) stay disabled until then, so
 * an early tap is not silently lost (and tests wait for them to be ready).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
