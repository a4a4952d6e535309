import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { requireAdmin } from "~/modules/auth/guards.server";

export const meta: MetaFunction = () => [{ title: "Admin — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  // The QA screens exist only with the QA_PAGE flag on.
  return { qa: context.config.FEATURE_FLAGS.QA_PAGE };
}

export default function AdminPage() {
  const { qa } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title="Admin" description="Tools for the people who run Porchlight." />
      <ul className="list-disc pl-6">
        <li>
          <Link to="/operations" className="font-medium text-brand-700 underline dark:text-brand-400">
            Operations Center
          </Link>
        </li>
        {qa ? (
          <li>
            <Link to="/qa" className="font-medium text-brand-700 underline dark:text-brand-400">
              QA Dashboard
            </Link>
          </li>
        ) : null}
        {qa ? (
          <li>
            <Link to="/qa-test" className="font-medium text-brand-700 underline dark:text-brand-400">
              AI QA Suite
            </Link>
          </li>
        ) : null}
      </ul>
    </>
  );
}
