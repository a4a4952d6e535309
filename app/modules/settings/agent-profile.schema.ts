import * as z from "zod";

const optional = (max: number, label: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? null : typeof value === "string" ? value.trim() : value),
    z.string().max(max, `${label} can be at most ${max} characters.`).nullable(),
  );

/** Spec section 3 agent_profiles: what the AI drafts are signed with and write about; the e-mail signature and postal address. */
export const AgentProfileSchema = z.object({
  agentName: optional(100, "Your name"),
  brokerage: optional(120, "Brokerage"),
  market: optional(120, "Market"),
  licenseNumber: optional(40, "License number"),
  // Absent (a form from before they existed) leaves them as they are.
  signature: optional(500, "Signature").optional(),
  postalAddress: optional(200, "Postal address").optional(),
});
export type AgentProfileInput = z.infer<typeof AgentProfileSchema>;
