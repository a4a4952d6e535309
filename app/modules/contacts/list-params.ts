import { CONTACT_SORTS, CONTACT_SOURCES, CONTACT_STATUSES, PROPERTY_TYPES, type ContactSort } from "~/db/enums";
import type { ContactFilters } from "./contacts.server";

const pick = <T extends string>(list: readonly T[], value: string | null): T | undefined => (list.includes(value as T) ? (value as T) : undefined);
const whole = (value: string | null) => {
  const n = Number((value ?? "").replace(/[$,\s]/g, ""));
  return value && Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
};

/** The list's URL (?q=&status=&source=&type=&tag=&min=&max=&loc=&sort=) as filters; unknown values are ignored. */
export function readListParams(params: URLSearchParams): { filters: ContactFilters; sort: ContactSort } {
  const text = (name: string) => params.get(name)?.trim().slice(0, 200) || undefined;
  return {
    filters: {
      search: text("q"),
      status: pick(CONTACT_STATUSES, params.get("status")),
      source: pick(CONTACT_SOURCES, params.get("source")),
      propertyType: pick(PROPERTY_TYPES, params.get("type")),
      tag: text("tag"),
      budgetMin: whole(params.get("min")),
      budgetMax: whole(params.get("max")),
      location: text("loc"),
    },
    sort: pick(CONTACT_SORTS, params.get("sort")) ?? "newest",
  };
}
