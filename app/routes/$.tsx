import { NotFound } from "~/components/ErrorPages";

// Any path no other route matches.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function CatchAll() {
  return <NotFound />;
}
