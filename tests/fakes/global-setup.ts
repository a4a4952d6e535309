import type { TestProject } from "vitest/node";
// @ts-expect-error -- plain ESM script shared with the end-to-end server, no type declarations
import { startFakeStripe } from "./stripe-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    fakeStripeBase: string;
  }
}

/** Starts the local fake Stripe API once for the whole run; tests read its address with inject(). */
export default async function setup(project: TestProject) {
  const { server, port } = await startFakeStripe();
  project.provide("fakeStripeBase", `http://127.0.0.1:${port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
