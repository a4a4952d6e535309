import { useFetcher } from "@remix-run/react";
import { KeyRound } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { CopyField } from "~/components/ui/CopyField";
import { Field } from "~/components/ui/Field";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { toast } from "~/components/ui/Toaster";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { API_KEYS_ACTION, type ApiKeyResult } from "../intake";

export interface ApiKeyItem {
  id: string;
  name: string;
  hint: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/**
 * Settings → Lead sources → API keys: keys for the lead API (Zapier, a website, a lead vendor), each named, shown once
 * when made, with when it was last used; revoking one asks first, then stops it at once.
 */
export function ApiKeysPanel({ keys, prefs, className }: { keys: ApiKeyItem[]; prefs: DisplayPreferences; className: string }) {
  const create = useFetcher<ApiKeyResult>();
  const [made, setMade] = useState<{ key: string; name: string } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useFetcherResult(create, (result) => {
    if (!result.ok) toast({ title: "No key made", description: result.error, variant: "destructive" });
    else if (result.intent === "create") {
      setMade({ key: result.key, name: result.name });
      form.current?.reset();
      toast({ title: "API key made", description: "Copy it now: it is shown only once.", variant: "success" });
    }
  });
  const live = keys.filter((k) => k.revokedAt === null);
  return (
    <section aria-labelledby="api-keys-heading" className={className}>
      <h2 id="api-keys-heading" className="flex items-center gap-2 text-lg font-semibold">
        <KeyRound aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" />
        API keys
      </h2>
      <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
        For Zapier, your website or a lead vendor: they send leads to <code className="font-mono">POST /api/v1/leads</code> with a key. A key creates
        leads and nothing else. The{" "}
        <a href="/api/v1/openapi.json" className="underline">
          API description
        </a>{" "}
        and the{" "}
        <a href="/guides/lead-intake" className="underline">
          lead intake guide
        </a>{" "}
        (with a Zapier example) say how.
      </p>
      <create.Form method="post" action={API_KEYS_ACTION} ref={form} className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end">
        <input type="hidden" name="intent" value="create" />
        <Field label="Key name" name="name" required maxLength={60} placeholder="Zapier" className="w-full" />
        <Button type="submit" busy={create.state !== "idle"}>
          Make a key
        </Button>
      </create.Form>
      {made ? (
        <div className="mt-3 rounded-xl border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950">
          <CopyField
            id="new-api-key"
            label={`${made.name}: your new key (shown only now)`}
            value={made.key}
            buttonLabel="Copy key"
            copied="Key copied"
            inputClassName="bg-white dark:bg-stone-900"
          />
        </div>
      ) : null}
      {keys.length === 0 ? (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">No keys yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-200 text-sm dark:divide-stone-800">
          {keys.map((key) => (
            <ApiKeyRow key={key.id} item={key} prefs={prefs} />
          ))}
        </ul>
      )}
      <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
        {live.length} live {live.length === 1 ? "key" : "keys"}, at most 10.
      </p>
    </section>
  );
}

function ApiKeyRow({ item, prefs }: { item: ApiKeyItem; prefs: DisplayPreferences }) {
  const revoke = useFetcher<ApiKeyResult>();
  const dialog = useRef<HTMLDialogElement>(null);
  useFetcherResult(revoke, (result) => {
    if (!result.ok) toast({ title: "Not revoked", description: result.error, variant: "destructive" });
    else toast({ title: "Key revoked", description: `${item.name} no longer sends leads.`, variant: "success" });
  });
  return (
    <li className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:gap-3">
      <span className="min-w-0 flex-1">
        <span className="font-medium">{item.name}</span> <span className="font-mono text-stone-600 dark:text-stone-400">…{item.hint}</span>
      </span>
      <span className="text-stone-700 dark:text-stone-300">
        {item.revokedAt !== null
          ? `Revoked ${formatDateTime(item.revokedAt, prefs)}`
          : item.lastUsedAt !== null
            ? `Last used ${formatDateTime(item.lastUsedAt, prefs)}`
            : "Never used"}
      </span>
      {item.revokedAt === null ? (
        <>
          <Button type="button" variant="secondary" onClick={() => dialog.current?.showModal()} aria-label={`Revoke ${item.name}`}>
            Revoke
          </Button>
          <Modal id={`revoke-${item.id}`} title={`Revoke ${item.name}?`} ref={dialog}>
            <revoke.Form method="post" action={API_KEYS_ACTION} onSubmit={() => dialog.current?.close()}>
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="id" value={item.id} />
              <p className="text-sm">Anything that sends leads with this key (a Zap, a website form) stops at once and gets “not valid” answers.</p>
              <ModalActions submitLabel="Revoke key" busy={revoke.state !== "idle"} className="mt-4" />
            </revoke.Form>
          </Modal>
        </>
      ) : null}
    </li>
  );
}
