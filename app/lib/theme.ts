// Light/dark theme (spec section 4): saved under porchlight-theme, light when nothing is saved.
export type Theme = "light" | "dark";
export const THEME_STORAGE_KEY = "porchlight-theme";

/** Runs inline in <head> before first paint, so a dark-mode user never sees a light flash. */
export const THEME_INIT_SCRIPT = `(function(){try{var t=localStorage.getItem(${JSON.stringify(
  THEME_STORAGE_KEY,
)});var d=t==="dark";var r=document.documentElement;r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light";}catch(e){}})();`;

export function readTheme(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

export function applyTheme(theme: Theme) {
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode without storage: the theme still applies for this page.
  }
}
