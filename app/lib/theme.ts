// Light/dark theme (spec section 4): the agent's choice is saved under porchlight-theme;
// until there is one (or after choosing "system"), the theme follows the device's prefers-color-scheme and
// changes with it (docs/decisions/0018-new-agent-defaults.md).
export type Theme = "light" | "dark";
export type ThemeChoice = Theme | "system";
const THEME_STORAGE_KEY = "porchlight-theme";
const KEY = JSON.stringify(THEME_STORAGE_KEY);

/**
 * Runs inline in <head> before first paint, so a dark-mode user never sees a light flash. It also keeps
 * following the system setting for the page's lifetime while no theme is chosen (client navigations keep
 * the same document, so one listener is enough).
 */
export const THEME_INIT_SCRIPT = `(function(){var r=document.documentElement;function saved(){try{var t=localStorage.getItem(${KEY});return t==="dark"||t==="light"?t:null}catch(e){return null}}var m=window.matchMedia?window.matchMedia("(prefers-color-scheme: dark)"):null;function apply(){var t=saved();var d=t?t==="dark":!!(m&&m.matches);r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light"}apply();if(m){var f=function(){if(!saved()){apply();document.dispatchEvent(new Event("porchlight-theme"))}};m.addEventListener?m.addEventListener("change",f):m.addListener(f)}})();`;

/** Fired on document when the shown theme changed without a click (the system setting changed). */
export const THEME_CHANGE_EVENT = "porchlight-theme";

export function readTheme(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

export function readThemeChoice(): ThemeChoice {
  try {
    const saved = localStorage.getItem(THEME_STORAGE_KEY);
    return saved === "dark" || saved === "light" ? saved : "system";
  } catch {
    return "system";
  }
}

function systemTheme(): Theme {
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** Applies and saves a choice; "system" forgets the saved theme so the device's setting rules again. */
export function applyTheme(choice: ThemeChoice) {
  const theme = choice === "system" ? systemTheme() : choice;
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
  try {
    if (choice === "system") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Private mode without storage: the theme still applies for this page.
  }
  document.dispatchEvent(new Event(THEME_CHANGE_EVENT));
}

/**
 * Theme toggles on static pages (served without React): one delegated listener flips the theme and keeps
 * every toggle's label and pressed state current. Only static pages include it; elsewhere ThemeToggle does this.
 */
export const THEME_TOGGLE_SCRIPT = `(function(){var r=document.documentElement;function sync(){var d=r.classList.contains("dark");document.querySelectorAll("[data-theme-toggle]").forEach(function(b){b.setAttribute("aria-pressed",String(d));b.setAttribute("aria-label","Switch to "+(d?"light":"dark")+" theme")})}document.addEventListener("click",function(e){var b=e.target instanceof Element&&e.target.closest("[data-theme-toggle]");if(!b)return;var d=!r.classList.contains("dark");r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light";try{localStorage.setItem(${KEY},d?"dark":"light")}catch(x){}sync()});document.addEventListener(${JSON.stringify(
  "porchlight-theme",
)},sync);if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",sync);else sync()})();`;
