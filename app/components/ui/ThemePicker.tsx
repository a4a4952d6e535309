import { useEffect, useState } from "react";
import { applyTheme, readThemeChoice, THEME_CHANGE_EVENT, type ThemeChoice } from "~/lib/theme";
import { FieldShell } from "./FieldShell";
import { SELECT_CLASS } from "./SelectField";

const CHOICES: [ThemeChoice, string][] = [
  ["system", "System (follows this device)"],
  ["light", "Light"],
  ["dark", "Dark"],
];

/** The way back to "follow the system" after the header toggle saved a choice. Device-local, applies at once. */
export function ThemePicker({ id = "theme-choice" }: { id?: string }) {
  // The server cannot know the saved choice; "system" until the effect reads it.
  const [choice, setChoice] = useState<ThemeChoice>("system");
  useEffect(() => {
    const sync = () => setChoice(readThemeChoice());
    sync();
    document.addEventListener(THEME_CHANGE_EVENT, sync);
    return () => document.removeEventListener(THEME_CHANGE_EVENT, sync);
  }, []);
  return (
    <FieldShell id={id} label="Theme" hint="Applies at once, on this device.">
      <select
        value={choice}
        onChange={(event) => {
          const next = event.target.value as ThemeChoice;
          setChoice(next);
          applyTheme(next);
        }}
        className={SELECT_CLASS}
      >
        {CHOICES.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}
