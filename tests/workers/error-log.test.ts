import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "~/lib/env.server";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { createContact } from "~/modules/contacts/contacts.server";
import { signInAs } from "../factories/browser";
import { failingD1, requestContext } from "../factories/context";
import { createUser } from "../factories/users";

/** What the Worker wrote to stderr while `run` ran: each console.error call's arguments. */
async function errorsDuring(run: () => Promise<Response>) {
  const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const response = await run();
  await response.text();
  const calls = spy.mock.calls.map((args) => [...args]);
  spy.mockRestore();
  return { response, calls };
}

/** The one compact line: a single JSON string with event, route and message, and nothing else. */
function oneCompactLine(calls: unknown[][]) {
  expect(calls).toHaveLength(1);
  const [args] = calls;
  expect(args).toHaveLength(1);
  const line = args![0] as string;
  expect(typeof line).toBe("string");
  expect(line).not.toContain("\n");
  expect(line.length).toBeLessThan(500);
  const parsed = JSON.parse(line) as Record<string, string>;
  expect(Object.keys(parsed).sort()).toEqual(["event", "message", "route"]);
  return { line, parsed };
}

afterEach(() => vi.restoreAllMocks());

describe("a server error is logged once, as one compact line without user data", () => {
  it("a loader that throws: one JSON line with the route pattern, no stack, no id or e-mail", async () => {
    const user = await createUser(env.DB);
    const contact = await createContact(
      requestContext(),
      user.id as UserId,
      ContactInputSchema.parse({ name: "Logged Person", email: "logged.person@example.com" }),
    );
    const browser = (await signInAs(user)).using({ ...(env as Env), DB: failingD1(env.DB, /from "crm_activities"/) });
    const { response, calls } = await errorsDuring(() => browser.get(`/contacts/${contact.id}`));
    expect(response.status).toBe(500);
    const { line, parsed } = oneCompactLine(calls);
    expect(parsed).toMatchObject({ event: "server_error", route: "/contacts/:id" });
    expect(parsed.message).toContain("simulated storage outage");
    for (const secret of [contact.id, user.email, "logged.person", user.id]) expect(line).not.toContain(secret);
    expect(line).not.toMatch(/\bat \S+ \(/); // no stack frame
  });

  it("an action that throws: the pattern of a route without parameters, none of the form's text", async () => {
    const user = await createUser(env.DB);
    const browser = (await signInAs(user)).using({ ...(env as Env), DB: failingD1(env.DB, /insert into "crm_tasks"/) });
    const dueDate = new Date().toISOString().slice(0, 10);
    const { response, calls } = await errorsDuring(() => browser.post("/tasks", { intent: "create", title: "Call the Failing Family", dueDate }));
    expect(response.status).toBe(500);
    const { line, parsed } = oneCompactLine(calls);
    expect(parsed).toMatchObject({ event: "server_error", route: "/tasks" });
    expect(line).not.toContain("Failing Family");
  });

  it("an /api handler that throws: one line with the Hono route pattern", async () => {
    const user = await createUser(env.DB);
    const browser = (await signInAs(user)).using({ ...(env as Env), DB: failingD1(env.DB, /contacts_fts|from "contacts"/) });
    const { response, calls } = await errorsDuring(() => browser.get("/api/search?scope=contacts&q=someone"));
    expect(response.status).toBe(500);
    const { parsed } = oneCompactLine(calls);
    expect(parsed).toMatchObject({ event: "api_error", route: "/api/search" });
    expect(JSON.stringify(parsed)).not.toContain("someone");
  });
});
