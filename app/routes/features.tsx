import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { Bot, Calculator, CalendarCheck, KanbanSquare, Smartphone, Users } from "lucide-react";
import { buttonClass } from "~/components/ui/Button";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { InfoCard } from "~/modules/marketing/components/InfoCard";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Features",
    description: "Contacts and leads, a deal pipeline, tasks and calendar, commission math, AI drafts and a phone-first app: what Porchlight does.",
    path: "/features",
  });

// Spec section 2: six feature cards. Each links to the guide that shows how it works.
const FEATURES = [
  {
    icon: Users,
    title: "Contacts and leads",
    body: "Every client in one searchable list with status, source, budget, location, tags and notes. Import from any CRM by CSV, spot duplicates, export whenever you like.",
    guide: { to: "/guides/importing-contacts", label: "Importing contacts" },
  },
  {
    icon: KanbanSquare,
    title: "Deal pipeline",
    body: "A board with your own stages, from Lead to Closed Won. Drag deals with a finger, a mouse or the keyboard, and see count, total and weighted value per stage.",
    guide: { to: "/guides/pipeline-setup", label: "Setting up your pipeline" },
  },
  {
    icon: Calculator,
    title: "Commissions and forecast",
    body: "Gross commission, referral fee, brokerage split with your annual cap, team split and fees, down to your agent net, a 12-month forecast weighted by stage, and reports of which lead source pays you.",
    guide: { to: "/guides/reports-guide", label: "Reading your reports" },
  },
  {
    icon: CalendarCheck,
    title: "Tasks and calendar",
    body: "Calls, showings, follow-ups and paperwork with due dates in your own timezone, a month and week calendar, and a private feed for Google or Apple Calendar.",
    guide: { to: "/guides/notifications", label: "Reminders and notifications" },
  },
  {
    icon: Bot,
    title: "AI assistant",
    body: "Follow-up e-mails, listing descriptions, market notes and a weekly plan, written from your own contacts and deals. It flags at-risk deals and Fair Housing wording.",
    guide: { to: "/guides/ai-features", label: "Using the AI features" },
  },
  {
    icon: Smartphone,
    title: "Made for your phone",
    body: "Install Porchlight on your home screen. Pages are built for one-handed use at 375 pixels wide and work in dark mode, with large touch targets throughout.",
    guide: { to: "/guides/mobile-app", label: "Installing the app" },
  },
] as const;

export default function FeaturesPage() {
  return (
    <MarketingPage
      label="Features"
      title="Everything an agent needs, nothing in the way"
      intro={<p>Porchlight brings your clients, deals, tasks and numbers together, and helps you write from them.</p>}
      width="max-w-5xl"
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map(({ icon, title, body, guide }) => (
          <InfoCard
            key={title}
            icon={icon}
            title={title}
            level="h2"
            footer={
              <Link
                to={guide.to}
                className="mt-4 inline-flex min-h-10 items-center font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400"
              >
                Guide: {guide.label}
              </Link>
            }
          >
            {body}
          </InfoCard>
        ))}
      </div>
      <div className="mt-12 flex flex-wrap gap-3">
        <Link to="/trial" className={buttonClass("primary")}>
          Start Free Trial
        </Link>
        <Link to="/pricing" className={buttonClass("secondary")}>
          See pricing
        </Link>
      </div>
    </MarketingPage>
  );
}
