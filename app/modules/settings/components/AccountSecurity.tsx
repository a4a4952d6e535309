import { Form, Link } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SignOutEverywhere } from "~/modules/auth/components/SignOutEverywhere";
import { NewPasswordFields } from "~/modules/auth/components/NewPasswordFields";

/** The form that changes the password: the current one, the new one twice. */
export function PasswordSettings({ errors, busy, className }: { errors: Record<string, string>; busy: boolean; className: string }) {
  return (
    <section aria-labelledby="password-heading" className={className}>
      <h2 id="password-heading" className="text-lg font-semibold">
        Change password
      </h2>
      <Form method="post" className="mt-4 flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value="password" />
        <Field
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          error={errors.currentPassword}
        />
        <NewPasswordFields errors={errors} />
        <Button type="submit" busy={busy} busyLabel="Saving…">
          Change password
        </Button>
      </Form>
    </section>
  );
}

/** Signs out of every device at once (a lost phone, a shared computer). */
export function SignedInDevices({ className }: { className: string }) {
  return (
    <section aria-labelledby="sessions-heading" className={className}>
      <h2 id="sessions-heading" className="text-lg font-semibold">
        Signed-in devices
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Lost a phone or used a shared computer? Sign out of Porchlight on every device at once, this one included.
      </p>
      <SignOutEverywhere className="mt-4" />
      <p className="mt-4 text-sm">
        <Link to="/settings/security" className="font-medium underline">
          Recent security events
        </Link>{" "}
        <span className="text-stone-600 dark:text-stone-400">: your sign-ins, new devices, password changes and exports.</span>
      </p>
    </section>
  );
}
