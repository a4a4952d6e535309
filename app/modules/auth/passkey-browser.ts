import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";

// The browser's half of passkeys (options arrive as JSON from the server's @simplewebauthn/server): @simplewebauthn/browser is loaded only when a passkey is made or used, so no page
// carries it until then (ADR 0074).

export const passkeysSupported = () => typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

/** Makes a passkey with the server's options; answers the credential as JSON for the form. */
export async function createPasskey(optionsJSON: object): Promise<string> {
  const { startRegistration } = await import("@simplewebauthn/browser");
  return JSON.stringify(await startRegistration({ optionsJSON: optionsJSON as PublicKeyCredentialCreationOptionsJSON }));
}

/** Signs the server's challenge with a passkey; answers the assertion as JSON for the form. */
export async function signWithPasskey(optionsJSON: object): Promise<string> {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  return JSON.stringify(await startAuthentication({ optionsJSON: optionsJSON as PublicKeyCredentialRequestOptionsJSON }));
}

/** What to tell the agent when the browser's passkey prompt ends without a passkey. */
export function passkeyProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return "The passkey prompt was closed or timed out. Try again when you are ready.";
  if (name === "InvalidStateError") return "This device's passkey is added already.";
  return "Your browser could not use a passkey here. Try again, or use another way.";
}
