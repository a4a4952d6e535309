// How a contact is named and greeted (also used by prompt.ts, fallback.ts and the welcome e-mail).

const HONORIFICS = /^(?:mr|mrs|ms|miss|mx|dr|prof)\.?$/i;

export function cleanName(name: string | null | undefined): string | null {
  const tidy = (name ?? "")
    .replace(/[{}[\]<>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return tidy || null;
}

const GROUPS = /^(?:family|household|team|group|estate|trust|llc|inc\.?|ltd\.?)$/i;

/**
 * How to greet a contact: "Zoë O'Brien" → "Zoë"; "O'Brien, Zoë" → "Zoë"; "Dr. Ann Lee" → "Dr. Lee";
 * "The Okafor family" → "Okafor family"; "Ann & Raj Patel" → "Ann and Raj"; "" → null.
 */
export function firstNameOf(name: string | null | undefined): string | null {
  const full = cleanName(name)?.replace(/^the\s+(?=\S+\s)/i, "") ?? null;
  if (!full) return null;
  const parts = full.replace(/,/g, " , ").replace(/\s+/g, " ").trim().split(" ");
  const last = parts[parts.length - 1] ?? "";
  if (GROUPS.test(last)) return full;
  const head = parts[0] ?? "";
  const joined = parts.findIndex((p) => p === "&" || p.toLowerCase() === "and");
  if (joined > 0 && !full.includes(",")) {
    // "Mr. and Mrs. Lee" stays whole; "Ann & Raj Patel" → "Ann and Raj".
    if (HONORIFICS.test(head)) return full.replace(/\s&\s/g, " and ");
    return parts
      .slice(0, parts.length > joined + 2 ? -1 : undefined)
      .join(" ")
      .replace(/\s&\s/g, " and ");
  }
  if (full.includes(",")) {
    const given = full.split(",")[1]?.trim().split(" ")[0];
    if (given) return given;
  }
  if (HONORIFICS.test(head) && parts.length > 1) {
    const title = head.replace(/\.?$/, ".");
    return `${title.charAt(0).toUpperCase()}${title.slice(1).toLowerCase()} ${last}`;
  }
  return head || null;
}
