import type { RequestContext } from "~/lib/context.server";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import type { UserId } from "~/modules/auth/session.server";
import { isOwnPassword } from "~/modules/auth/own-password.server";
import type { SettingsOutcome } from "~/modules/settings/settings-actions.server";
import { eraseCrmData, erasedSummary } from "./erase.server";
import { finishDataRequest, openDataRequest } from "./requests.server";

/**
 * Settings → Data → Delete my data: the CRM records go, the account stays. The password is asked again (rate
 * limited), and the erasure is kept as a data request, completed with what went or failed.
 */
export async function deleteMyData(context: RequestContext, userId: UserId, password: FormDataEntryValue | undefined): Promise<SettingsOutcome> {
  const fail = (status: 400 | 429, message: string): SettingsOutcome => ({ ok: false, status, errors: { password: message } });
  const limit = await hitRateLimit(context.cloudflare.env.KV, "data-erase", userId, RATE_LIMITS.dataErase);
  if (!limit.allowed) return fail(429, `Too many tries. Please wait ${Math.ceil(limit.retryAfterSeconds / 60)} minutes. Nothing was deleted.`);
  if (typeof password !== "string" || !(await isOwnPassword(context, userId, password)))
    return fail(400, "That password is not correct. Nothing was deleted.");
  const requestId = await openDataRequest(context.db, userId, "erasure", "Delete my data", new Date());
  try {
    const summary = erasedSummary(await eraseCrmData(context.cloudflare.env.DB, userId));
    await finishDataRequest(
      context.db,
      userId,
      requestId,
      "completed",
      new Date(),
      `Delete my data: ${summary}, their stage history, lead source costs and the trash`,
    );
    return { ok: true, to: "/settings?tab=data", toast: { title: "Data Deletion Complete", description: `Deleted ${summary}.`, variant: "success" } };
  } catch (error) {
    await finishDataRequest(context.db, userId, requestId, "failed", new Date()).catch(() => undefined);
    console.error(JSON.stringify({ event: "data_erase_failed", detail: error instanceof Error ? error.message : String(error) }));
    return {
      ok: true,
      to: "/settings?tab=data",
      toast: { title: "Deletion Failed", description: "Some of your data may remain. Please try again.", variant: "destructive" },
    };
  }
}
