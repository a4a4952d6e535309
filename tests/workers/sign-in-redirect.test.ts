import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "../factories/browser";
import { OPEN_REDIRECT_TRICKS } from "../factories/open-redirect-tricks";
import { createUser } from "../factories/users";

/** Signs in through the real /auth form with `redirectTo`, as the page's hidden field sends it. */
async function signInWith(redirectTo: string) {
  const user = await createUser(env.DB);
  return new TestBrowser().post("/auth", { mode: "signin", email: user.email, password: user.password, website_url: "", redirectTo });
}

describe("sign-in's redirectTo over HTTP", () => {
  it("follows a same-site path", async () => {
    const response = await signInWith("/contacts?status=hot");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/contacts?status=hot");
  });

  it("answers every open-redirect trick with a redirect that stays on the site, never a 500", async () => {
    for (const trick of OPEN_REDIRECT_TRICKS) {
      const response = await signInWith(trick);
      expect(response.status, JSON.stringify(trick)).toBe(302);
      const location = response.headers.get("Location")!;
      expect(location, JSON.stringify(trick)).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
      // Resolved as a browser does, against the page that was posted.
      expect(new URL(location, "http://localhost/auth").origin, JSON.stringify(trick)).toBe("http://localhost");
    }
    // 43 sign-ins, each a new account (the per-e-mail limit allows 5 a minute) and two PBKDF2 hashes at 100,000
    // iterations: about 6 s on a quiet machine, past 30 s on a loaded one.
  }, 120_000);

  it("sends the tab and CR/LF tricks to the dashboard", async () => {
    for (const trick of ["/\t/evil.example/x", "/\r\n/evil.example"]) {
      expect((await signInWith(trick)).headers.get("Location")).toBe("/dashboard");
    }
  });
});
