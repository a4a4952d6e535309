import { z } from "zod";
import { INVITE_ROLES } from "~/db/enums";
import { EmailSchema } from "~/modules/auth/auth.schema";

// The team page's forms, one schema per intent. Ids are checked for shape here and for ownership by the
// server functions (a member or invitation of the actor's own team, or nothing happens).
/** Days an invitation link works. */
export const INVITE_DAYS = 7;

const Id = z.string().trim().min(1, "Choose a member or invitation.").max(64, "That id is not valid.");

const ROLE_CHOICE = "Choose a role: admin, agent or inside sales (ISA).";

export const TeamNameSchema = z.string().trim().min(1, "Give the team a name.").max(80, "Keep the team's name under 80 characters.");

export const TeamActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: EmailSchema, role: z.enum(INVITE_ROLES, { message: ROLE_CHOICE }) }),
  z.object({ intent: z.literal("resend"), invitationId: Id }),
  z.object({ intent: z.literal("revoke"), invitationId: Id }),
  z.object({
    intent: z.literal("remove"),
    memberId: Id,
    // "" (or absent): the removed member keeps their data; a member's id: that member takes it over (ADR 0039).
    reassignTo: z
      .string()
      .trim()
      .max(64, "That id is not valid.")
      .optional()
      .transform((v) => v || undefined),
    // Set by the removal dialog once it has said what moves to whom: a bare removal (an old page, a replay) is refused.
    confirm: z.literal("yes", { error: "Open Remove… and confirm: the dialog says what moves and to whom." }),
  }),
  z.object({
    intent: z.literal("hand-over"),
    memberId: Id,
    to: Id,
    // Set by the dialog once it has said what moves to whom (the member stays on the team).
    confirm: z.literal("yes", { error: "Open Hand over… and confirm: the dialog says what moves and to whom." }),
  }),
  z.object({ intent: z.literal("role"), memberId: Id, role: z.enum(INVITE_ROLES, { message: ROLE_CHOICE }) }),
  z.object({ intent: z.literal("rename"), name: TeamNameSchema }),
  z.object({ intent: z.literal("leave") }),
  z.object({ intent: z.literal("offer-ownership"), memberId: Id }),
  z.object({ intent: z.literal("withdraw-offer") }),
  z.object({ intent: z.literal("accept-ownership") }),
  z.object({ intent: z.literal("decline-ownership") }),
]);
export type TeamAction = z.infer<typeof TeamActionSchema>;
