import { Command, Search } from "lucide-react";
import { useEffect, useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { useCommandPalette } from "./CommandPaletteProvider";

/** ⌘ on Apple keyboards. Known only in the browser, so the server renders "Ctrl". */
function useIsMac() {
  const [mac, setMac] = useState(false);
  useEffect(() => {
    const platform =
      (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform || navigator.platform || navigator.userAgent;
    setMac(/mac|iphone|ipad/i.test(platform));
  }, []);
  return mac;
}

/**
 * Opens the command palette. By default the header's: a search box look-alike with the shortcut from lg
 * up (narrower headers have no room for it), an icon below (on phones, which have no keyboard, it is the
 * way in). `floating`: a round button left of the Add New Contact button, in the same row (above the
 * mobile bottom nav), where the page's bottom padding keeps it clear of content; from md up it also says
 * "Commands".
 */
export function CommandPaletteButton({ floating = false }: { floating?: boolean }) {
  const palette = useCommandPalette();
  const mac = useIsMac();
  // Disabled until the app has hydrated: a tap before then would reach no handler and be lost (e2e loop, run 3).
  const hydrated = useHydrated();
  const common = {
    type: "button" as const,
    disabled: !hydrated,
    onClick: palette.open,
    onPointerEnter: palette.preload,
    onFocus: palette.preload,
    "aria-haspopup": "dialog" as const,
    "aria-keyshortcuts": "Control+K Meta+K",
  };
  if (floating) {
    return (
      <button
        {...common}
        className="fixed bottom-24 right-[5.5rem] z-40 inline-flex h-14 min-w-14 items-center justify-center gap-2 rounded-full border border-stone-300 bg-white text-stone-900 shadow-lg hover:bg-stone-100 md:bottom-8 md:right-28 md:px-5 dark:border-stone-600 dark:bg-stone-800 dark:text-stone-100 dark:hover:bg-stone-700"
      >
        <Command aria-hidden="true" className="h-6 w-6 md:h-5 md:w-5" />
        <span className="sr-only font-semibold md:not-sr-only">Commands</span>
      </button>
    );
  }
  return (
    <button
      {...common}
      aria-label="Search and commands"
      className="inline-flex h-12 w-12 items-center justify-center gap-2 rounded-lg text-stone-700 hover:bg-stone-100 lg:w-72 lg:justify-start lg:border lg:border-stone-300 lg:bg-stone-50 lg:px-3 lg:text-stone-600 dark:text-stone-200 dark:hover:bg-stone-800 lg:dark:border-stone-700 lg:dark:bg-stone-950 lg:dark:text-stone-400"
    >
      <Search aria-hidden="true" className="h-5 w-5 shrink-0" />
      <span aria-hidden="true" className="hidden text-sm lg:inline">
        Search and commands
      </span>
      <kbd
        aria-hidden="true"
        className="ml-auto hidden rounded border border-stone-300 bg-white px-1.5 font-sans text-xs text-stone-600 lg:inline dark:border-stone-700 dark:bg-stone-900 dark:text-stone-400"
      >
        {mac ? "⌘K" : "Ctrl K"}
      </kbd>
    </button>
  );
}
