import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";

/** Recovery codes: the new set, shown once, or how many are left and "Make new codes". */
export function RecoveryCodesPanel({
  codes,
  left,
  on,
  busy,
  className,
}: {
  codes: string[] | null;
  left: number;
  on: boolean;
  busy: boolean;
  className: string;
}) {
  return (
    <section aria-labelledby="recovery-heading" className={className}>
      <h2 id="recovery-heading" className="text-lg font-semibold">
        Recovery codes
      </h2>
      {codes ? (
        <>
          <p role="status" className="mt-1 text-sm font-medium">
            Save these {codes.length} codes now (print them, or keep them in your password manager): this is the only time they are shown. Each signs
            you in once if your passkey and phone are out of reach.
          </p>
          <ol className="mt-3 grid grid-cols-2 gap-2 font-mono text-base sm:grid-cols-5" aria-label="Your recovery codes">
            {codes.map((code) => (
              <li key={code} className="rounded-md bg-stone-100 px-2 py-1 text-center dark:bg-stone-800" data-recovery-code="">
                {code}
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          {on
            ? `${left} of 10 unused. Each signs you in once when your passkey and authenticator app are out of reach.`
            : "Made when two-factor sign-in comes on: ten one-use codes for when your passkey and phone are out of reach."}
        </p>
      )}
      {on ? (
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="recovery-new" />
          <Button type="submit" variant="secondary" busy={busy} busyLabel="Making codes…" aria-describedby="recovery-new-what">
            Make new codes
          </Button>
          <p id="recovery-new-what" className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            The codes you have now stop working.
          </p>
        </Form>
      ) : null}
    </section>
  );
}
