import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { createContact } from "~/modules/contacts/contacts.server";
import { createDeal, getDeal } from "~/modules/deals/deals.server";
import { DEFAULT_STAGES } from "~/modules/pipeline/stages";
import { getStages } from "~/modules/pipeline/stages.server";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dealInput } from "../factories/deals";
import { createUser } from "../factories/users";

async function twoAgents() {
  const alice = await createUser(env.DB);
  const bob = await createUser(env.DB);
  const ctx = requestContext();
  const contact = await createContact(ctx, alice.id as UserId, ContactInputSchema.parse({ name: "Alice's Client", email: "client@example.com" }));
  const created = await createDeal(ctx, alice.id as UserId, dealInput({ title: "Alice's listing", contactId: contact.id }));
  if (!created.ok) throw new Error("deal not created");
  return { alice, bob, contact, deal: created.deal, aliceBrowser: await signInAs(alice), bobBrowser: await signInAs(bob) };
}

describe("deals through the app", () => {
  it("shows each agent only their own pipeline and deal pages", async () => {
    const { deal, bob, aliceBrowser, bobBrowser } = await twoAgents();
    expect((await createDeal(requestContext(), bob.id as UserId, dealInput({ title: "Bob's listing" }))).ok).toBe(true);
    expect(await (await aliceBrowser.get("/pipeline")).text()).toContain("Alice&#x27;s listing");
    const board = await bobBrowser.page("/pipeline");
    expect(board).toContain("Bob&#x27;s listing");
    expect(board).not.toContain("Alice");
    expect((await aliceBrowser.get(`/deals/${deal.id}`)).status).toBe(200);
    expect((await bobBrowser.get(`/deals/${deal.id}`)).status).toBe(404);
    // Filtering by Alice's contact: Bob's list answers, names no contact and lists none of her deals (nor his).
    const filtered = await bobBrowser.page(`/pipeline?view=list&contactId=${deal.contactId}`);
    expect(filtered).toContain(bob.email);
    expect(filtered).not.toContain("Alice");
    expect(filtered).not.toContain("Bob&#x27;s listing");
    expect(await bobBrowser.page("/pipeline?view=list")).toContain("Bob&#x27;s listing");
  });

  it("refuses another agent's edit, move and delete with 404, and changes nothing", async () => {
    const { alice, deal, contact, bobBrowser } = await twoAgents();
    expect((await bobBrowser.post(`/deals/${deal.id}`, { intent: "update", title: "Taken", stage: "lead", dealValueCents: "1" })).status).toBe(404);
    expect((await bobBrowser.post(`/deals/${deal.id}`, { intent: "move", stage: "offer" })).status).toBe(404);
    expect((await bobBrowser.post("/pipeline?index", { intent: "move", id: deal.id, stage: "offer" })).status).toBe(404);
    expect((await bobBrowser.post(`/deals/${deal.id}`, { intent: "delete" })).status).toBe(404);
    // Bob cannot attach Alice's contact to a deal of his.
    const linked = await bobBrowser.post("/pipeline?index", {
      intent: "create",
      title: "Mine",
      stage: "lead",
      dealValueCents: "100",
      contactId: contact.id,
    });
    expect(linked.status).toBe(400);
    expect(await getDeal(requestContext(), alice.id as UserId, deal.id)).toMatchObject({ title: "Alice's listing", stage: "lead" });
  });

  it("validates the deal form on the server with the same messages", async () => {
    const { aliceBrowser } = await twoAgents();
    const response = await aliceBrowser.post("/pipeline?index", { intent: "create", title: "", stage: "lead", dealValueCents: "lots" });
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toContain("Give the deal a title.");
    expect(body).toContain("Enter the deal value (the sale price), e.g. 650,000.");
  });

  it("saves stages for the signed-in agent only and refuses a broken pipeline", async () => {
    const { alice, bob, aliceBrowser } = await twoAgents();
    const post = (body: unknown) =>
      aliceBrowser.fetch("/pipeline/stages", {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "Content-Type": "application/json", Origin: "http://localhost" },
      });
    expect((await post("nonsense")).status).toBe(400);
    expect((await post({ stages: DEFAULT_STAGES.filter((s) => s.kind !== "lost") })).status).toBe(400);
    // The lead stage holds Alice's deal: it cannot go.
    expect((await post({ stages: DEFAULT_STAGES.filter((s) => s.key !== "lead") })).status).toBe(400);
    expect((await post({ stages: DEFAULT_STAGES.map((s) => (s.key === "offer" ? { ...s, name: "Offer out" } : s)) })).status).toBe(200);
    expect((await getStages(requestContext(), alice.id as UserId)).find((s) => s.key === "offer")?.name).toBe("Offer out");
    expect((await getStages(requestContext(), bob.id as UserId)).find((s) => s.key === "offer")?.name).toBe("Offer");
  });
});
