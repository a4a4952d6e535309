import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { dispatchResourceIntent } from "~/lib/intents.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { getContact } from "~/modules/contacts/contacts.server";
import { PLAN_MESSAGES } from "~/modules/plans/plan";
import { getPlan, pausePlanRun, resumePlanRun, startPlanRun, stopPlanRun } from "~/modules/plans/plans.server";

// The contact page's Action plans card posts here (with a fetcher): start one of the agent's plans for the contact, and
// pause, resume or stop one of their runs. Another agent's contact, plan or run is not found.

const done = (intent: string, message: string) => Response.json({ ok: true, intent, message });
const refused = (intent: string, error: string, status: number) => Response.json({ ok: false, intent, error, fieldErrors: {} }, { status });

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const contactId = params.id ?? "";
  const runId = String(form.get("runId") ?? "");
  const change = (intent: string, run: typeof pausePlanRun, message: string) => async () =>
    (await run(context.db, user.id, runId)) ? done(intent, message) : refused(intent, PLAN_MESSAGES.runGone, 404);
  return dispatchResourceIntent(form, {
    start: async () => {
      const [contact, plan] = await Promise.all([
        getContact(context, user.id, contactId),
        getPlan(context.db, user.id, String(form.get("planId") ?? "")),
      ]);
      if (!contact) return refused("start", PLAN_MESSAGES.noContact, 404);
      if (!plan) return refused("start", PLAN_MESSAGES.notFound, 404);
      if (!(await startPlanRun(context.db, user.id, contact.id, plan.id)))
        return refused("start", PLAN_MESSAGES.alreadyOn(plan.name, contact.name), 409);
      return done("start", PLAN_MESSAGES.started(plan.name, contact.name));
    },
    pause: change("pause", pausePlanRun, PLAN_MESSAGES.paused),
    resume: change("resume", resumePlanRun, PLAN_MESSAGES.resumed),
    stop: change("stop", stopPlanRun, PLAN_MESSAGES.stopped),
  });
}
