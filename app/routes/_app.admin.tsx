import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { requireAdmin } from "~/modules/auth/guards.server";

export const meta: MetaFunction = () => [{ title: "Admin — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function AdminPage() {
  return (
    <>
      <PageHeader title="Admin" description="Tools for the people who run Porchlight." />
      <ul className="list-disc pl-6">
        <li>
          <Link to="/operations" className="font-medium text-brand-700 underline dark:text-brand-400">
            Operations Center
          </Link>
        </li>
      </ul>
    </>
  );
}
