import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Download } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import { requireUser } from "~/modules/auth/guards.server";
import { AuditList } from "~/modules/audit/components/AuditList";
import { SECURITY_DAYS } from "~/modules/audit/catalogue";
import { loadSecurityEvents } from "~/modules/audit/team-audit.server";

export const meta: MetaFunction = () => [{ title: "Security events — Porchlight" }];

// Settings → Security → Recent security events (ADR 0073): the signed-in user's own security events, and nobody else's.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const after = new URL(request.url).searchParams.get("after");
  const page = await loadSecurityEvents(context, user.id, after && /^\d{1,15}\.[\w-]{1,64}$/.test(after) ? after : null);
  return { ...page, first: after !== null };
}

export default function SecurityEventsPage() {
  const { lines, next, first } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader
        title="Recent security events"
        description={`Your sign-ins, new devices, failed sign-ins, password changes and exports of the last ${SECURITY_DAYS} days.`}
        actions={
          <a href="/settings/security.csv" className={buttonClass("secondary")} download>
            <Download aria-hidden="true" className="h-5 w-5" />
            Download CSV
          </a>
        }
      />
      <AuditList
        lines={lines}
        label="Security events, newest first"
        nextHref={next ? `?after=${encodeURIComponent(next)}` : null}
        firstHref={first ? "?" : null}
        empty="No security events in this time."
      />
      <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
        Something you do not recognise? Change your password, and sign out the devices you do not know from{" "}
        <Link to="/settings/security" className="underline">
          Settings → Security
        </Link>
        .
      </p>
    </>
  );
}
