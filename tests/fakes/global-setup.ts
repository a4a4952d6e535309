import type { TestProject } from "vitest/node";
// @ts-expect-error -- plain ESM script shared with the end-to-end server, no type declarations
import { startFakeStripe } from "./stripe-server.mjs";
// @ts-expect-error -- plain ESM script shared with the end-to-end server and `npm start`, no type declarations
import { startFakeGoogle } from "./google-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    fakeStripeBase: string;
    fakeGoogleBase: string;
  }
}

/** Starts the local fake Stripe and Google APIs once for the whole run; tests read their addresses with inject(). */
export default async function setup(project: TestProject) {
  const stripe = await startFakeStripe();
  const google = await startFakeGoogle();
  project.provide("fakeStripeBase", `http://127.0.0.1:${stripe.port}`);
  project.provide("fakeGoogleBase", `http://127.0.0.1:${google.port}`);
  const close = (server: { close: (done: () => void) => void }) => new Promise<void>((resolve) => server.close(() => resolve()));
  return () => Promise.all([close(stripe.server), close(google.server)]).then(() => undefined);
}
