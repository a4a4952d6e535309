import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { ComposeSchema } from "~/modules/conversations/compose";
import { composeOptions } from "~/modules/conversations/compose.server";
import { sendContactEmail } from "~/modules/conversations/send.server";
import { fieldErrors } from "~/lib/schema-fields";

// GET: what the compose dialog offers (templates, who it comes from). POST: sends the e-mail to the contact (ADR 0071).

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  return Response.json(await composeOptions(context, user.id), { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const parsed = ComposeSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return Response.json({ ok: false, intent: "send", error: Object.values(errors)[0], fieldErrors: errors }, { status: 400 });
  }
  const sent = await sendContactEmail(context, user.id, params.id ?? "", parsed.data);
  if (!sent.ok) {
    const { status, ...refused } = sent;
    return Response.json({ ...refused, intent: "send" }, { status });
  }
  return Response.json({ ok: true, intent: "send", emailId: sent.emailId, via: sent.via, from: sent.from });
}
