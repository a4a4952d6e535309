import type { MetaFunction } from "@remix-run/cloudflare";
import { Users } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { subscriberOnlyLoader } from "~/modules/auth/guards.server";

export const meta: MetaFunction = () => [{ title: "Contacts — Porchlight" }];
export const loader = subscriberOnlyLoader;

export default function ContactsPage() {
  return (
    <>
      <PageHeader title="Contacts" description="Leads, clients and your sphere" />
      <EmptyState icon={Users} title="No contacts yet">
        <p>Contacts you add or import will be listed here, searchable and tagged.</p>
      </EmptyState>
    </>
  );
}
