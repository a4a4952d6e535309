import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "~/lib/env.server";
import worker from "../../workers/app";

// Lead e-mails for the intake tests (ADR 0065): the fixtures in tests/fixtures/intake, and a delivery through the
// Worker's email() handler as Email Routing makes it.

const FIXTURES = import.meta.glob<string>("/tests/fixtures/intake/*.eml", { query: "?raw", import: "default", eager: true });

/** A fixture, sent `sentAgoMs` before now, with a Message-ID of its own unless one is given, and `to` when given. */
export function fixtureEmail(name: string, options: { sentAgoMs?: number; messageId?: string; to?: string } = {}) {
  const raw = FIXTURES[`/tests/fixtures/intake/${name}.eml`];
  if (raw === undefined) throw new Error(`No fixture ${name}.eml`);
  const sent = new Date(Date.now() - (options.sentAgoMs ?? 90_000)).toUTCString().replace("GMT", "+0000");
  const id = options.messageId ?? `<${crypto.randomUUID()}@fixture.test>`;
  const dated = raw.replace(/^Date: .*$/m, `Date: ${sent}`).replace(/^Message-ID: .*$/m, `Message-ID: ${id}`);
  return options.to ? dated.replace(/^To: .*$/m, `To: ${options.to}`) : dated;
}

/** Hands `raw` to the Worker's email() handler as Email Routing would; answers the rejection, if any. */
export async function deliverEmail(to: string, raw: string, rawSize = new TextEncoder().encode(raw).length, runEnv: Env = env as Env) {
  let rejected: string | null = null;
  const message = {
    from: "bounces@sender.test",
    to,
    raw: new Response(raw).body!,
    rawSize,
    headers: new Headers(),
    setReject(reason: string) {
      rejected = reason;
    },
    forward: async () => ({ messageId: "" }),
    reply: async () => ({ messageId: "" }),
  };
  const ctx = createExecutionContext();
  await worker.email!(message as unknown as ForwardableEmailMessage, runEnv, ctx);
  await waitOnExecutionContext(ctx);
  return rejected as string | null;
}
