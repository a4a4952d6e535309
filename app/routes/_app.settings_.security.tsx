import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { TabNav } from "~/components/ui/TabNav";
import { formWideError } from "~/lib/action-result";
import { readForm } from "~/lib/body.server";
import { dispatchIntent, refuse } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber, SECURITY_PATH } from "~/modules/auth/guards.server";
import { loadSecurityPage, runSecurityAction } from "~/modules/auth/security-page.server";
import { SECURITY_INTENTS, type SecurityIntent } from "~/modules/auth/security-intents";
import { AuthenticatorPanel } from "~/modules/auth/components/AuthenticatorPanel";
import { DevicesPanel } from "~/modules/auth/components/DevicesPanel";
import { PasskeysPanel } from "~/modules/auth/components/PasskeysPanel";
import { RecoveryCodesPanel } from "~/modules/auth/components/RecoveryCodesPanel";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { SETTINGS_TABS } from "~/modules/settings/settings-page.server";

export const meta: MetaFunction = () => [{ title: "Security — Settings — Porchlight" }];

// Settings → Security (ADR 0074): passkeys, the authenticator app, recovery codes and signed-in devices. A member of a
// team that requires two-factor sign-in lands here until they have a second factor (requireUser lets this path through).

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const [page, prefs] = await Promise.all([loadSecurityPage(context, request, user), getDisplayPreferences(context, user.id)]);
  return { ...page, prefs, tabs: SETTINGS_TABS };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const fields = Object.fromEntries(form);
  const handle = (intent: SecurityIntent) => async () => {
    const done = await runSecurityAction(context, request, user, intent, fields);
    if (!done.ok) return refuse(intent, done.errors, done.status);
    // New recovery codes are shown once, on this answer: never in a redirect, a toast or the loader.
    if (done.recoveryCodes) return data({ ok: true as const, intent, recoveryCodes: done.recoveryCodes, message: done.toast.title });
    return redirectWithToast(context, SECURITY_PATH, done.toast);
  };
  return dispatchIntent(form, Object.fromEntries(SECURITY_INTENTS.map((intent) => [intent, handle(intent)])));
}

const card = "rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900";

export default function SecuritySettingsPage() {
  const { email, required, status, passkeys, setup, devices, prefs, tabs } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = (intent: SecurityIntent) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const refused = answer && !answer.ok ? answer : undefined;
  const errors = (intent: SecurityIntent) => (refused?.intent === intent ? refused.fieldErrors : {});
  const formError = formWideError(refused);
  const codes = answer?.ok && "recoveryCodes" in answer ? answer.recoveryCodes : null;

  return (
    <>
      <PageHeader title="Settings" description={`Signed in as ${email}`} />
      <TabNav label="Settings sections" base="/settings" tabs={tabs} current="security" />
      {required ? (
        <div
          role="alert"
          className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-semibold">Your team requires two-factor sign-in</p>
          <p className="mt-1 text-sm">Add a passkey or an authenticator app below before you go on. Until then, Porchlight brings you back here.</p>
        </div>
      ) : null}
      {formError ? (
        <p role="alert" className="mb-4 text-sm font-medium text-red-700 dark:text-red-400">
          {formError}
        </p>
      ) : null}
      <div className="flex flex-col gap-6">
        <section aria-labelledby="two-factor-heading" className={card}>
          <h2 id="two-factor-heading" className="text-lg font-semibold">
            Two-factor sign-in
          </h2>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {status.on
              ? "On: after your password, Porchlight asks for a passkey or a code from your authenticator app."
              : "Off: your password alone signs you in. Add a passkey or an authenticator app to turn it on."}
          </p>
        </section>
        {codes ? (
          <RecoveryCodesPanel codes={codes} left={status.recoveryCodesLeft} on={status.on} busy={busy("recovery-new")} className={card} />
        ) : null}
        <PasskeysPanel passkeys={passkeys} prefs={prefs} errors={errors("passkey-add")} busy={busy} className={card} />
        <AuthenticatorPanel status={status} setup={setup} errors={errors("totp-confirm")} busy={busy} className={card} />
        {codes ? null : (
          <RecoveryCodesPanel codes={null} left={status.recoveryCodesLeft} on={status.on} busy={busy("recovery-new")} className={card} />
        )}
        <DevicesPanel devices={devices} prefs={prefs} busy={busy("session-end")} className={card} />
        <p className="text-sm">
          <Link to="/settings/security/events" className="font-medium underline">
            Recent security events
          </Link>
          <span className="text-stone-600 dark:text-stone-400">: your sign-ins, new devices, password changes and exports.</span>
        </p>
      </div>
    </>
  );
}
