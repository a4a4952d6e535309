import * as z from "zod";

// What the signed-in app's pages report (ADR 0024): Core Web Vitals and navigation timings of the
// page's first load, and the JS heap where the browser exposes it. No URL, no ids, nothing about the agent:
// the route is the Remix route id, which the server turns into its pattern. Browser-safe.

/** The largest beacon accepted, in bytes (a full one is about 300). */
export const RUM_MAX_BYTES = 2_048;
/** Beacons accepted per signed-in user per minute (a page sends one when it is hidden or left). */
export const RUM_RATE = { limit: 30, windowSeconds: 60 };
/**
 * Beacons accepted per account per hour: only full page loads report (moves inside the app do not), so a busy
 * agent sends a few dozen; two a minute all hour is past any real use. The cap bounds what one account adds to
 * the percentiles and the alerts they open.
 */
export const RUM_HOURLY = { limit: 120, windowSeconds: 3600 };

const ms = (max: number) => z.number().finite().min(0).max(max);
/** Bounds past which a value is not a measurement but a broken clock or a forged beacon. */
const RumMetricSchema = z.discriminatedUnion("name", [
  z.object({ name: z.literal("lcp"), value: ms(600_000) }),
  z.object({ name: z.literal("inp"), value: ms(600_000) }),
  z.object({ name: z.literal("ttfb"), value: ms(600_000) }),
  z.object({ name: z.literal("load"), value: ms(600_000) }),
  z.object({ name: z.literal("render"), value: ms(600_000) }),
  /** Unitless; the server stores thousandths. */
  z.object({ name: z.literal("cls"), value: z.number().finite().min(0).max(100) }),
  /** MB. */
  z.object({ name: z.literal("heap"), value: z.number().finite().min(0).max(65_536) }),
]);

export const RumBeaconSchema = z.strictObject({
  route: z.string().min(1).max(200),
  metrics: z
    .array(RumMetricSchema)
    .min(1)
    .max(7)
    .refine((list) => new Set(list.map((m) => m.name)).size === list.length, "Each metric may appear once."),
});
export type RumBeacon = z.infer<typeof RumBeaconSchema>;
