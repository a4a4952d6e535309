import { Moon, Sun } from "lucide-react";
import { useEffect, useState } from "react";
import { applyTheme, readTheme, THEME_CHANGE_EVENT, type Theme } from "~/lib/theme";

/**
 * Both icons are rendered and CSS shows the right one, so the button is correct before any script runs.
 * On static pages (no React) the inline THEME_TOGGLE_SCRIPT handles the click through data-theme-toggle.
 */
export function ThemeToggle({ className = "" }: { className?: string }) {
  // The server cannot know the saved theme; the inline head script already applied it before paint.
  const [theme, setTheme] = useState<Theme | null>(null);
  useEffect(() => {
    const sync = () => setTheme(readTheme());
    sync();
    // The theme also changes when the system setting does (no choice saved) or in Settings.
    document.addEventListener(THEME_CHANGE_EVENT, sync);
    return () => document.removeEventListener(THEME_CHANGE_EVENT, sync);
  }, []);
  const next: Theme = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      data-theme-toggle=""
      onClick={() => {
        applyTheme(next);
        setTheme(next);
      }}
      aria-label={`Switch to ${next} theme`}
      aria-pressed={theme === "dark"}
      className={`inline-flex h-12 w-12 items-center justify-center rounded-lg text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800 ${className}`}
    >
      <Moon aria-hidden="true" className="h-5 w-5 dark:hidden" />
      <Sun aria-hidden="true" className="hidden h-5 w-5 dark:block" />
    </button>
  );
}
