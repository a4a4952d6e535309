// The build files of the signed-in app's pages, which the service worker keeps with the field view (ADR 0031).
// Offline, a tap on a tab runs the app's own navigation first: the page's code has to load before its data request can
// fail and the app can open the saved copy of that screen. A page's code that is not in the cache fails to load, and
// Remix then reloads the page the agent was on, so the tap would open the saved copy of the wrong screen.

interface ManifestRoute {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
  css?: string[];
}

/** The signed-in app's layout route: every page with the tab bar is under it. */
const APP_LAYOUT_ROUTE = "routes/_app";

/** Every file (module, the modules it imports, its CSS) of the app layout and every route under it, sorted, once each. */
export function appPageAssets(manifest: { routes: Record<string, ManifestRoute | undefined> }): string[] {
  const routes = manifest.routes;
  const underApp = (route: ManifestRoute): boolean => {
    for (
      let current: ManifestRoute | undefined = route, depth = 0;
      current && depth < 50;
      current = current.parentId ? routes[current.parentId] : undefined, depth++
    ) {
      if (current.id === APP_LAYOUT_ROUTE) return true;
    }
    return false;
  };
  const files = new Set<string>();
  for (const route of Object.values(routes)) {
    if (!route || !underApp(route)) continue;
    for (const file of [route.module, ...(route.imports ?? []), ...(route.css ?? [])]) if (file.startsWith("/assets/")) files.add(file);
  }
  return [...files].sort();
}
