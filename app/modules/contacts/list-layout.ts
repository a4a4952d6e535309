// How the contact list is laid out on a screen. Shared by the server (the saved choice) and the page.

/**
 * "list" is what every account starts with and means "fit the screen": cards under 768 px, where a table
 * would squeeze and scroll sideways, and the table from md up. "table" and "cards" are an explicit choice
 * and hold on every screen.
 */
export const CONTACTS_LAYOUTS = ["list", "table", "cards"] as const;
export type ContactsLayout = (typeof CONTACTS_LAYOUTS)[number];

/** The layout shown on a phone (under md) or a wider screen for the saved choice. */
export function layoutOn(screen: "phone" | "wide", saved: ContactsLayout): "table" | "cards" {
  if (saved !== "list") return saved;
  return screen === "phone" ? "cards" : "table";
}
