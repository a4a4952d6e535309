import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { getGmailConnection } from "~/modules/gmail/mailbox.server";
import { userCard } from "~/modules/team/names.server";
import { listTemplates } from "~/modules/templates/templates.server";
import type { ComposeOptions } from "./compose";

/** What the compose dialog offers: the agent's e-mail templates (their own and their team's), and who it comes from. */
export async function composeOptions(context: RequestContext, userId: UserId): Promise<ComposeOptions> {
  const [templates, gmail, agent] = await Promise.all([
    listTemplates(context, userId),
    getGmailConnection(context.db, userId),
    userCard(context.db, userId),
  ]);
  return {
    templates: templates
      .filter((t) => t.kind === "email")
      .map(({ id, name, subject, body, scope }) => ({ id, name, subject: subject ?? "", body, scope })),
    texts: templates.filter((t) => t.kind === "text").map(({ id, name, body, scope }) => ({ id, name, body, scope })),
    from:
      gmail?.status === "connected"
        ? { via: "gmail" as const, label: gmail.email, note: "From your Gmail: it is in your Sent folder, and replies come to your inbox and here." }
        : gmail
          ? { via: "gmail" as const, label: gmail.email, note: "Your Gmail needs reconnecting in Settings → E-mail before you can send from it." }
          : {
              via: "porchlight" as const,
              label: `${agent?.name ?? "You"} via Porchlight`,
              note: "Connect your Gmail in Settings → E-mail to send from your own address. Replies come back here and to your notifications.",
            },
  };
}
