import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { AI_QA_CATEGORIES } from "~/modules/ai/eval/rubric";
import { qaUser } from "~/modules/qa/access.server";
import type { AiQaEvent } from "~/modules/qa/ai-results";
import { runAiSuite } from "~/modules/qa/ai-runner.server";
import { eventStream, postOnly } from "~/modules/qa/sse.server";

/** POST /qa-test/run: the AI QA suite, all cards or one (`category`), as server-sent events. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user, admin } = await qaUser(request, context);
  if (!admin) return Response.json({ ok: false, error: "You don't have permission to access this area." }, { status: 403 });
  const form = await readForm(request);
  const asked = form.get("category");
  const category = AI_QA_CATEGORIES.find((c) => c === asked);
  if (asked !== null && asked !== "" && !category)
    return Response.json({ ok: false, error: `Choose one of: ${AI_QA_CATEGORIES.join(", ")}.` }, { status: 400 });
  return eventStream<AiQaEvent>(
    context,
    (emit) => runAiSuite({ env: context.cloudflare.env, db: context.db, userId: user.id, category, emit }),
    (emit) => emit({ type: "done", runId: "", passed: 0, total: 0 }),
  );
}

export const loader = postOnly;
