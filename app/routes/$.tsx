import { NotFound } from "~/components/ErrorPages";
import { STATIC_PAGE } from "~/lib/seo";

// The not-found page needs no script.
export const handle = STATIC_PAGE;

// Any path no other route matches.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function CatchAll() {
  return <NotFound />;
}
