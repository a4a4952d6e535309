import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ComponentType } from "react";
import type { NavItem } from "~/components/shell/nav";
import { toast } from "~/components/ui/Toaster";
import { useOpenAddContact } from "~/modules/contacts/components/AddContactDialog";
import type { CommandPaletteProps } from "./CommandPalette";

// The palette itself (cmdk and its commands) is fetched on first use, so the layout carries only this.
const loadPalette = () => import("./CommandPalette");

export interface CommandPaletteControls {
  open(): void;
  close(): void;
  /** Starts fetching the palette's code, e.g. when a pointer nears a button that opens it. */
  preload(): void;
}

const CommandPaletteContext = createContext<CommandPaletteControls>({ open() {}, close() {}, preload() {} });
/** Opens and closes the command palette from anywhere in the signed-in app. */
export const useCommandPalette = () => useContext(CommandPaletteContext);

/** Ctrl+K (Windows, Linux) or ⌘K (Mac). A non-Latin layout still has the K key where K is. */
function isPaletteShortcut(event: KeyboardEvent) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.isComposing) return false;
  return /^[a-z]$/i.test(event.key) ? event.key.toLowerCase() === "k" : event.code === "KeyK";
}

/** Goes inside AddContactProvider: the palette's "New contact" opens that dialog. */
export function CommandPaletteProvider({ navItems, children }: { navItems: NavItem[]; children: React.ReactNode }) {
  const openAddContact = useOpenAddContact();
  const [Palette, setPalette] = useState<ComponentType<CommandPaletteProps> | null>(null);
  const [isOpen, setOpen] = useState(false);
  const openRef = useRef(false);
  // Where focus goes back to when the palette closes.
  const opener = useRef<HTMLElement | null>(null);

  const preload = useCallback(() => {
    loadPalette().then(
      (module) => setPalette(() => module.CommandPalette),
      () => {},
    );
  }, []);

  const open = useCallback(() => {
    if (openRef.current) return;
    openRef.current = true;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(true);
    loadPalette().then(
      (module) => setPalette(() => module.CommandPalette),
      () => {
        openRef.current = false;
        setOpen(false);
        toast({ title: "The command palette could not load", description: "Check your connection and try again.", variant: "destructive" });
      },
    );
  }, []);

  const close = useCallback(() => {
    openRef.current = false;
    setOpen(false);
  }, []);

  // The palette's <dialog> returns focus itself; this covers a close that left focus nowhere.
  const closed = useCallback(() => {
    close();
    const target = opener.current;
    if (target?.isConnected && (!document.activeElement || document.activeElement === document.body)) target.focus();
  }, [close]);

  useEffect(() => {
    // Capture phase: the shortcut works even where a focused field handles its own keys.
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      event.preventDefault();
      if (openRef.current) close();
      else open();
    };
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, [open, close]);

  const controls = useMemo(() => ({ open, close, preload }), [open, close, preload]);
  return (
    <CommandPaletteContext.Provider value={controls}>
      {children}
      {Palette ? <Palette open={isOpen} navItems={navItems} onAddContact={openAddContact} onClosed={closed} /> : null}
    </CommandPaletteContext.Provider>
  );
}
