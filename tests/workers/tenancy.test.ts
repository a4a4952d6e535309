import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import { subscribers } from "~/db/schema";
import { ownedBy } from "~/lib/tenancy.server";
import { describe, expect, it } from "vitest";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import type { UserId } from "~/modules/auth/session.server";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";

describe("owner scoping", () => {
  it("saves display preferences for the signed-in user only, whatever ids the form carries", async () => {
    const alice = await createUser(env.DB);
    const bob = await createUser(env.DB);
    const browser = await signInAs(alice);
    const saved = await browser.post("/settings", {
      intent: "preferences",
      dateFormat: "EU",
      timeFormat: "24h",
      timezone: "Europe/Oslo",
      currency: "NOK",
      userId: bob.id,
      user_id: bob.id,
    });
    expect(saved.status).toBe(302);
    const context = requestContext();
    expect(await getDisplayPreferences(context, alice.id as UserId)).toMatchObject({ dateFormat: "EU", currency: "NOK", timezone: "Europe/Oslo" });
    expect(await getDisplayPreferences(context, bob.id as UserId)).toMatchObject({ dateFormat: "US", currency: "USD", timezone: "America/New_York" });

    const bobPage = await (await signInAs(bob)).page("/settings");
    expect(bobPage).toContain(bob.email);
    expect(bobPage).not.toContain(alice.email);
  });

  it("refuses invalid preferences with a clear message and keeps the old ones", async () => {
    const user = await createUser(env.DB);
    const browser = await signInAs(user);
    const response = await browser.post("/settings", {
      intent: "preferences",
      dateFormat: "US",
      timeFormat: "12h",
      timezone: "Mars/Olympus",
      currency: "GBP",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("That timezone is not recognised.");
    expect(html).toContain("Choose one of the listed currencies.");
    expect(await getDisplayPreferences(requestContext(), user.id as UserId)).toMatchObject({ timezone: "America/New_York", currency: "USD" });
  });
});

describe("ownedBy", () => {
  it("limits a query to the given user's rows and combines with further conditions", async () => {
    const alice = await createUser(env.DB, { status: "active" });
    await createUser(env.DB, { status: "active" });
    const db = createDb(env.DB);
    const rows = await db
      .select()
      .from(subscribers)
      .where(ownedBy(subscribers, alice.id as UserId));
    expect(rows.map((r) => r.userId)).toEqual([alice.id]);
    const none = await db
      .select()
      .from(subscribers)
      .where(ownedBy(subscribers, alice.id as UserId, eq(subscribers.subscriptionStatus, "canceled")));
    expect(none).toEqual([]);
  });
});
