import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BOOKMARK_COOKIE, openRequestDatabase } from "~/lib/d1-session.server";
import type { Env } from "~/lib/env.server";
import { postContact, signInAs } from "../factories/browser";
import { createUser } from "../factories/users";

// Reads near the agent (ADR 0057): one D1 session per request, and the bookmark of a write carried to the next
// request in a cookie, so an agent reads their own writes. Locally replication is off: the session API runs, every
// read is the primary's, and nothing may break.

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

const addContact = postContact;

const bookmarkSet = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${BOOKMARK_COOKIE}=`))
    ?.split(";")[0]
    ?.slice(BOOKMARK_COOKIE.length + 1) ?? null;

describe("a request's D1 session", () => {
  it("a write hands back its bookmark; the next request starts there and reads the write; a read hands back none", async () => {
    const browser = await signInAs(await createUser(env.DB));
    const added = await addContact(browser, "Bookmark Reader");
    expect(added.status).toBe(200);
    const first = bookmarkSet(added);
    expect(first).toMatch(BOOKMARK);
    expect(browser.cookies.get(BOOKMARK_COOKIE)).toBe(first);

    const list = await browser.fetch("/contacts");
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("Bookmark Reader");
    expect(bookmarkSet(list)).toBeNull();

    // Another write moves the bookmark on (bookmarks are fixed-width hex: later sorts after).
    const second = bookmarkSet(await addContact(browser, "Bookmark Second"));
    expect(second).toMatch(BOOKMARK);
    expect(second! > first!).toBe(true);
    expect(browser.cookies.get(BOOKMARK_COOKIE)).toBe(second);
  });

  it("ignores a cookie that is not a bookmark", async () => {
    const browser = await signInAs(await createUser(env.DB));
    for (const junk of ["first-primary", "x'; drop table users;--", "0".repeat(300)]) {
      browser.cookies.set(BOOKMARK_COOKIE, encodeURIComponent(junk));
      const page = await browser.fetch("/contacts");
      expect(page.status, junk).toBe(200);
    }
    const added = await addContact(browser, "After Junk");
    expect(added.status).toBe(200);
    expect(bookmarkSet(added)).toMatch(BOOKMARK);
  });

  it("starts the session at the request's bookmark, else unconstrained; an in-process request shares its sender's", async () => {
    const starts: string[] = [];
    const recording = {
      ...(env as unknown as Env),
      DB: Object.assign(Object.create(env.DB) as D1Database, {
        withSession(start: string) {
          starts.push(start);
          return env.DB.withSession(start);
        },
      }),
    };
    const bookmark = "00000000-0000002a-00000000-00000000000000000000000000000000";
    // The session opens at the request's first query (until then the request may still be routed, ADR 0060).
    const open = async (request: Request) => {
      const opened = openRequestDatabase(recording, request);
      await opened.env.DB.prepare("select 1").first();
      return opened;
    };
    await open(new Request("http://localhost/", { headers: { Cookie: `${BOOKMARK_COOKIE}=${bookmark}` } }));
    await open(new Request("http://localhost/", { headers: { Cookie: `${BOOKMARK_COOKIE}=nope` } }));
    // Another database's bookmark is not this one's: the session starts unconstrained.
    await open(new Request("http://localhost/", { headers: { Cookie: `${BOOKMARK_COOKIE}=1:${bookmark}` } }));
    const opened = await open(new Request("http://localhost/"));
    expect(starts).toEqual([bookmark, "first-unconstrained", "first-unconstrained", "first-unconstrained"]);
    // The QA Dashboard's checks dispatch with the request's own env: its session is used as it is.
    const inner = openRequestDatabase(opened.env, new Request("http://localhost/", { method: "POST" }));
    expect(inner.env).toBe(opened.env);
    expect(inner.bookmarkCookie()).toBeNull();
    expect(starts).toHaveLength(4);
  });
});
