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

/**
 * Theme toggles on static pages (served without React): one delegated listener flips the theme and keeps
 * every toggle's label and pressed state current. Only static pages include it; elsewhere ThemeToggle does this.
 */
export const THEME_TOGGLE_SCRIPT = `(function(){var r=document.documentElement;function sync(){var d=r.classList.contains("dark");document.querySelectorAll("[data-theme-toggle]").forEach(function(b){b.setAttribute("aria-pressed",String(d));b.setAttribute("aria-label","Switch to "+(d?"light":"dark")+" theme")})}document.addEventListener("click",function(e){var b=e.target instanceof Element&&e.target.closest("[data-theme-toggle]");if(!b)return;var d=!r.classList.contains("dark");r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light";try{localStorage.setItem(${JSON.stringify(
  THEME_STORAGE_KEY,
)},d?"dark":"light")}catch(x){}sync()});if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",sync);else sync()})();`;
