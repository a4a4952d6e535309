import { Field } from "~/components/ui/Field";
import { PASSWORD_MIN_LENGTH } from "../password";

/** The new password, typed twice, with the length rule as a hint (resetting it, changing it in Settings). */
export function NewPasswordFields({ errors }: { errors: { password?: string; confirm?: string } }) {
  return (
    <>
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={errors.password}
      />
      <Field label="Repeat new password" name="confirm" type="password" autoComplete="new-password" required error={errors.confirm} />
    </>
  );
}
