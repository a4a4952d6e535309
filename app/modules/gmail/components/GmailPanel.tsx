import { Form, useNavigation } from "@remix-run/react";
import { AlertTriangle, Mail } from "lucide-react";
import { useRef } from "react";
import { Button } from "~/components/ui/Button";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { formatDate, type DisplayPreferences } from "~/lib/format";

const ACTION = "/settings/gmail";

interface Props {
  settings: {
    setupProblem: string | null;
    connection: { email: string; status: "connected" | "needs_reconnect"; connectedAt: string } | null;
    agentName: string;
  };
  prefs: DisplayPreferences;
  className: string;
}

/** "Connect Gmail" / "Reconnect": a plain form post, so the browser follows the redirect to Google's consent page. */
function ConnectForm({ label, variant = "primary" }: { label: string; variant?: "primary" | "secondary" }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === ACTION && navigation.formData?.get("intent") === "connect";
  return (
    <Form method="post" action={ACTION} reloadDocument className="mt-4">
      <Button type="submit" name="intent" value="connect" variant={variant} busy={busy} busyLabel="Opening Google…">
        {label}
      </Button>
    </Form>
  );
}

/**
 * Settings → E-mail → Send from your Gmail: connect the agent's own mailbox (Google's consent page), see which address
 * is connected and whether Google still accepts it, reconnect, or disconnect (confirmed first).
 */
export function GmailPanel({ settings, prefs, className }: Props) {
  const { setupProblem, connection, agentName } = settings;
  const dialog = useRef<HTMLDialogElement>(null);
  const navigation = useNavigation();
  const disconnecting = navigation.state !== "idle" && navigation.formData?.get("intent") === "disconnect";
  const viaPorchlight = `“${agentName} via Porchlight”`;
  return (
    <section aria-labelledby="gmail-heading" className={className}>
      <h2 id="gmail-heading" className="flex items-center gap-2 text-lg font-semibold">
        <Mail aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" />
        Send from your Gmail
      </h2>
      {!connection ? (
        <>
          <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
            Connect your Gmail and the e-mails you send from Porchlight go out from your own address, sit in your Sent folder, and Porchlight can show
            the replies to them. Porchlight asks Google for two permissions: to send as you, and to read your mail; it only ever opens the
            conversations it started. Until you connect, e-mails go out as {viaPorchlight}.
          </p>
          {setupProblem ? (
            <p role="note" className="mt-3 flex gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
              <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              <span>Connecting Gmail is not available yet. {setupProblem}</span>
            </p>
          ) : (
            <ConnectForm label="Connect Gmail" />
          )}
        </>
      ) : (
        <>
          <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
            Connected as <strong className="break-all font-semibold text-stone-900 dark:text-stone-100">{connection.email}</strong> since{" "}
            {formatDate(connection.connectedAt, prefs)}.
          </p>
          {connection.status === "connected" ? (
            <p className="mt-2 text-sm font-medium text-emerald-800 dark:text-emerald-300">Working: e-mails you send go out from this address.</p>
          ) : (
            <div role="alert" className="mt-3 rounded-lg bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
              <p className="flex gap-2 font-semibold">
                <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
                Gmail needs reconnecting
              </p>
              <p className="mt-1">
                Google no longer accepts Porchlight's access (it was removed in your Google account, or the password changed). Until you reconnect,
                e-mails go out as {viaPorchlight}.
              </p>
            </div>
          )}
          <div className="flex flex-wrap items-end gap-3">
            {connection.status === "needs_reconnect" ? (
              setupProblem ? (
                <p className="mt-4 text-sm text-stone-700 dark:text-stone-300">Reconnecting is not available yet. {setupProblem}</p>
              ) : (
                <ConnectForm label="Reconnect Gmail" />
              )
            ) : null}
            <Button type="button" variant="secondary" className="mt-4" aria-haspopup="dialog" onClick={() => dialog.current?.showModal()}>
              Disconnect
            </Button>
          </div>
          <Modal ref={dialog} id="gmail-disconnect" title="Disconnect Gmail?">
            <Form method="post" action={ACTION} onSubmit={() => dialog.current?.close()}>
              <p className="text-sm text-stone-700 dark:text-stone-300">
                Porchlight's access to {connection.email} is revoked at Google and forgotten here. E-mails you send from Porchlight will then go out
                as {viaPorchlight}. Mail already sent stays in your Gmail.
              </p>
              <input type="hidden" name="intent" value="disconnect" />
              <ModalActions submitLabel="Disconnect" busy={disconnecting} busyLabel="Disconnecting…" className="mt-4" />
            </Form>
          </Modal>
        </>
      )}
    </section>
  );
}
