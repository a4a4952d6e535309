import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const worker = (exports as unknown as { default: Fetcher }).default;

describe("worker", () => {
  it("answers the floor route", async () => {
    const response = await worker.fetch("http://localhost/api/ping");
    expect(await response.text()).toBe("pong");
  });
  it("renders the landing page", async () => {
    const response = await worker.fetch("http://localhost/");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("The AI CRM for real estate agents");
  });
});
