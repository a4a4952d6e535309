import { Form, useSubmit } from "@remix-run/react";
import { useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import { createPasskey, passkeyProblem, passkeysSupported } from "../passkey-browser";
import type { SecurityIntent } from "../security-intents";

interface PasskeyRow {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** Settings → Security's passkeys: the list (made, last used, remove) and "Add a passkey", named by the agent. */
export function PasskeysPanel({
  passkeys,
  prefs,
  errors,
  busy,
  className,
}: {
  passkeys: PasskeyRow[];
  prefs: DisplayPreferences;
  errors: Record<string, string>;
  busy: (intent: SecurityIntent) => boolean;
  className: string;
}) {
  const submit = useSubmit();
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function add(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    if (!name) return setProblem("Name the passkey first, e.g. “iPhone” or “Work laptop”.");
    if (!passkeysSupported()) return setProblem("This browser cannot make passkeys.");
    setProblem(null);
    setWorking(true);
    try {
      const answer = await fetch("/settings/security/passkey-options", { method: "POST" });
      if (!answer.ok) throw new Error("options");
      const response = await createPasskey((await answer.json()) as object);
      submit({ intent: "passkey-add", name, response }, { method: "post" });
    } catch (error) {
      setProblem(passkeyProblem(error));
    } finally {
      setWorking(false);
    }
  }

  const shown = problem ?? errors.name ?? errors.form;
  return (
    <section aria-labelledby="passkeys-heading" className={className}>
      <h2 id="passkeys-heading" className="text-lg font-semibold">
        Passkeys
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        A passkey confirms it is you with your phone's or computer's lock (face, fingerprint or PIN). Nothing to type, nothing to steal.
      </p>
      {passkeys.length > 0 ? (
        <ul className="mt-4 divide-y divide-stone-200 dark:divide-stone-800">
          {passkeys.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium wrap-anywhere">{key.name}</p>
                <p className="text-sm text-stone-600 dark:text-stone-400">
                  Added {formatDateTime(key.createdAt, prefs)} ·{" "}
                  {key.lastUsedAt ? `last used ${formatDateTime(key.lastUsedAt, prefs)}` : "not used yet"}
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="passkey-remove" />
                <input type="hidden" name="id" value={key.id} />
                <Button type="submit" variant="secondary" aria-label={`Remove passkey ${key.name}`} busy={busy("passkey-remove")}>
                  Remove
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={add} className="mt-4 flex max-w-md flex-col gap-3" noValidate>
        <Field label="Name for the new passkey" name="name" hint="So you can tell your passkeys apart, e.g. “iPhone”." maxLength={60} error={shown} />
        <Button type="submit" busy={working || busy("passkey-add")} busyLabel="Waiting for your passkey…">
          Add a passkey
        </Button>
      </form>
    </section>
  );
}
