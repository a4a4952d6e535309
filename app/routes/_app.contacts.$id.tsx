import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireSubscriber } from "~/modules/auth/guards.server";

// Contact profiles arrive with the contacts module; until then no id names a contact of this user.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSubscriber(request, context);
  throw new Response("Not Found", { status: 404 });
}

export default function ContactProfile() {
  return null;
}
