import type { DraftEnvelope } from "./draft-types";
import { cleanName, firstNameOf } from "./drafter";

/**
 * The spec's canned fallback (section 8, "AI coach"): shown ONLY when generation fails or returns no text.
 * Deliberately generic, so nobody mistakes it for a draft written from their data: a financing-verification
 * e-mail for follow-ups, a short next-steps list for everything else.
 */
export function fallbackText(envelope: DraftEnvelope): string {
  if (envelope.task === "follow_up") {
    const first = firstNameOf(envelope.contact?.name) ?? "there";
    const signature = [cleanName(envelope.agent.name), cleanName(envelope.agent.brokerage)].filter(Boolean);
    return [
      "Subject: Checking in on your financing",
      "",
      `Hi ${first},`,
      "",
      "I wanted to check in on your financing. Have you been pre-approved, and is your pre-approval letter still current? Having it confirmed means we can move quickly when the right home comes along.",
      "",
      "If it would help, I'm happy to recommend a lender or set up a quick call.",
      "",
      "Best regards,",
      ...signature,
    ].join("\n");
  }
  return [
    "Next steps:",
    "- Follow up with hot contacts you have not reached in the last 7 days.",
    "- Check deals under contract that close in the next 15 days.",
    "- Update each open deal's value, probability and expected close date.",
    "- Add a dated task for every next step.",
  ].join("\n");
}
