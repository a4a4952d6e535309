import { useSubmit } from "@remix-run/react";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/Button";
import { passkeyProblem, passkeysSupported, signWithPasskey } from "../passkey-browser";

/** The second step's "Use your passkey": the browser's passkey prompt, then the signed challenge to the server. */
export function PasskeySignIn({ busy }: { busy: boolean }) {
  const submit = useSubmit();
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function start() {
    if (!passkeysSupported()) return setProblem("This browser cannot use passkeys. Use a code below.");
    setProblem(null);
    setWorking(true);
    try {
      const answer = await fetch("/auth/two-factor/passkey-options", { method: "POST" });
      if (!answer.ok) throw new Error("options");
      submit({ intent: "passkey", response: await signWithPasskey((await answer.json()) as object) }, { method: "post" });
    } catch (error) {
      setProblem(passkeyProblem(error));
    } finally {
      setWorking(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <Button type="button" onClick={start} busy={working || busy} busyLabel="Waiting for your passkey…">
        <KeyRound aria-hidden="true" className="h-5 w-5" />
        Use your passkey
      </Button>
      {problem ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
