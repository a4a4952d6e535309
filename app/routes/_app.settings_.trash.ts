import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { auditWhere } from "~/modules/audit/audit.server";
import { redirect } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { emptyTrash, restoreFromTrash } from "~/modules/trash/trash.server";
import { restoredMessage, TRASH_MESSAGES, type TrashActionResult } from "~/modules/trash/trash";
import { TrashActionSchema } from "~/modules/trash/trash.schema";

// Settings → Trash and every delete's Undo post here: restore items, delete them for good, or empty the trash.
// Only trash ids come from the browser; each is looked up under the signed-in agent, so another agent's id is
// "not found" and changes nothing.

export const loader = () => redirect("/settings?tab=trash");

const answer = (result: TrashActionResult, status = 200) => Response.json(result, { status });

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const parsed = TrashActionSchema.safeParse({
    intent,
    id: form
      .getAll("id")
      .map(String)
      .filter((id) => id.trim() !== ""),
  });
  if (!parsed.success) {
    const known = intent === "restore" || intent === "delete" || intent === "empty";
    return answer({ ok: false, intent, error: known ? (parsed.error.issues[0]?.message ?? TRASH_MESSAGES.unknown) : TRASH_MESSAGES.unknown }, 400);
  }
  const db = context.cloudflare.env.DB;
  const input = parsed.data;
  try {
    if (input.intent === "restore") {
      const result = await restoreFromTrash(db, user.id, input.id, undefined, auditWhere(request));
      if (result.restored === 0)
        return answer(
          { ok: false, intent, error: result.conflicts ? TRASH_MESSAGES.conflict : TRASH_MESSAGES.notFound },
          result.conflicts ? 409 : 404,
        );
      const message = result.conflicts ? `${restoredMessage(result.byKind)}. ${TRASH_MESSAGES.conflict}` : restoredMessage(result.byKind);
      return answer({ ok: true, intent, message, count: result.restored });
    }
    if (input.intent === "delete") {
      const deleted = await emptyTrash(db, user.id, input.id);
      if (deleted === 0) return answer({ ok: false, intent, error: TRASH_MESSAGES.notFound }, 404);
      return answer({
        ok: true,
        intent,
        message: `${deleted.toLocaleString("en-US")} ${deleted === 1 ? "item" : "items"} deleted for good`,
        count: deleted,
      });
    }
    const deleted = await emptyTrash(db, user.id);
    return answer({ ok: true, intent, message: deleted ? "Trash emptied" : "The trash was already empty", count: deleted });
  } catch (error) {
    console.error(JSON.stringify({ event: "trash_action_failed", intent, message: error instanceof Error ? error.message : String(error) }));
    return answer({ ok: false, intent, error: TRASH_MESSAGES.failed }, 500);
  }
}
