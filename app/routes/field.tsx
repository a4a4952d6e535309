import type { MetaFunction } from "@remix-run/cloudflare";
import { FieldApp } from "~/modules/sync/field-app/FieldApp";

// The field view (ADR 0031): one document for everyone, with no data in it, which the service worker keeps
// and opens in place of an app page it cannot load offline. The agent's copy is read in the browser.
export const meta: MetaFunction = () => [{ title: "Saved copy — Porchlight" }, { name: "robots", content: "noindex" }];

export default function FieldRoute() {
  return <FieldApp />;
}
