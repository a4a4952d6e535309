import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import type { SecurityIntent } from "../security-intents";

interface Status {
  totpAvailable: boolean;
  totp: "off" | "pending" | "on";
}

/** Settings → Security's authenticator app: set up (QR code, key to type, a code to confirm), or turn off. */
export function AuthenticatorPanel({
  status,
  setup,
  errors,
  busy,
  className,
}: {
  status: Status;
  setup: { uri: string; secret: string; qrSvg: string } | null;
  errors: Record<string, string>;
  busy: (intent: SecurityIntent) => boolean;
  className: string;
}) {
  return (
    <section aria-labelledby="authenticator-heading" className={className}>
      <h2 id="authenticator-heading" className="text-lg font-semibold">
        Authenticator app
      </h2>
      {!status.totpAvailable ? (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Not available here: this Porchlight has no key to keep an authenticator secret encrypted (TOKEN_ENCRYPTION_KEY). Use a passkey.
        </p>
      ) : status.totp === "on" ? (
        <>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">On: sign-in accepts a 6-digit code from your app, each code once.</p>
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="totp-off" />
            <Button type="submit" variant="secondary" busy={busy("totp-off")} busyLabel="Turning off…">
              Turn off the authenticator app
            </Button>
          </Form>
        </>
      ) : status.totp === "pending" && setup ? (
        <div className="mt-2 flex flex-col gap-4">
          <p className="text-sm text-stone-600 dark:text-stone-400">
            1. In your authenticator app (Google Authenticator, 1Password, Authy…), add an account by scanning this code.
          </p>
          <div
            role="img"
            aria-label="QR code of your authenticator key"
            className="w-48 max-w-full rounded-lg bg-white p-2 [&>svg]:h-auto [&>svg]:w-full"
            // Rendered on the server from the otpauth:// address (uqr): an SVG of black and white squares, no script.
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
          <div className="text-sm">
            <p>Cannot scan? Type this key into the app instead:</p>
            <p className="mt-1 font-mono text-base tracking-wide wrap-anywhere" data-totp-secret="">
              {setup.secret}
            </p>
            <a href={setup.uri} className="mt-1 inline-block font-medium text-brand-700 underline dark:text-brand-400">
              Open in an authenticator app on this device
            </a>
          </div>
          <Form method="post" className="flex max-w-md flex-col gap-3">
            <input type="hidden" name="intent" value="totp-confirm" />
            <Field
              label="2. Enter the 6-digit code the app shows"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              required
              error={errors.code ?? errors.form}
            />
            <Button type="submit" busy={busy("totp-confirm")} busyLabel="Checking…">
              Turn on
            </Button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="totp-cancel" />
            <Button type="submit" variant="ghost">
              Cancel setup
            </Button>
          </Form>
        </div>
      ) : (
        <>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Use a 6-digit code from an app on your phone when a passkey is not at hand.
          </p>
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="totp-start" />
            <Button type="submit" variant="secondary" busy={busy("totp-start")}>
              Set up an authenticator app
            </Button>
          </Form>
        </>
      )}
    </section>
  );
}
