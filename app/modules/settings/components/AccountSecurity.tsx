import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
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
