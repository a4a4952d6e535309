import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { Bot, KanbanSquare, UserPlus } from "lucide-react";
import { buttonClass } from "~/components/ui/Button";
import { subscriberOnlyLoader } from "~/modules/auth/guards.server";

export const meta: MetaFunction = () => [{ title: "Welcome — Porchlight" }];
export const loader = subscriberOnlyLoader;

const CARDS = [
  { to: "/contacts", icon: UserPlus, title: "Add your first contact", body: "Start with the people you are already talking to." },
  { to: "/pipeline", icon: KanbanSquare, title: "Set up your pipeline", body: "Stages, probabilities and commission forecasts." },
  { to: "/ai-assistant", icon: Bot, title: "Try the AI assistant", body: "Follow-ups and listing copy written from your data." },
];

const INCLUDED = [
  "Complete CRM for contacts and leads",
  "AI-written communication",
  "Task and calendar management",
  "Commission tracking",
  "Mobile access",
  "Analytics and reports",
];

export default function WelcomePage() {
  const [params] = useSearchParams();
  const trial = params.get("trial") === "1";
  return (
    <div className="flex flex-col gap-8">
      <div>
        <h1 className="text-3xl font-bold">Welcome to Porchlight!</h1>
        <p className="mt-2 text-lg text-stone-700 dark:text-stone-300">
          {trial
            ? "Your 14-day free trial has started, with every premium feature included."
            : "Your account is ready. Here is where to begin."}
        </p>
      </div>
      <ul className="grid gap-4 md:grid-cols-3">
        {CARDS.map(({ to, icon: Icon, title, body }) => (
          <li key={to}>
            <Link to={to} className="flex h-full flex-col gap-2 rounded-2xl border border-stone-200 bg-white p-5 hover:border-brand-600 dark:border-stone-800 dark:bg-stone-900">
              <Icon aria-hidden="true" className="h-7 w-7 text-brand-700 dark:text-brand-400" />
              <span className="font-semibold">{title}</span>
              <span className="text-sm text-stone-600 dark:text-stone-400">{body}</span>
            </Link>
          </li>
        ))}
      </ul>
      <section aria-labelledby="included">
        <h2 id="included" className="text-lg font-semibold">
          Included in your plan
        </h2>
        <ul className="mt-3 grid gap-2 sm:grid-cols-2">
          {INCLUDED.map((item) => (
            <li key={item} className="flex items-center gap-2">
              <span aria-hidden="true" className="text-brand-700 dark:text-brand-400">✓</span>
              {item}
            </li>
          ))}
        </ul>
      </section>
      <div className="flex flex-wrap items-center gap-4">
        <Link to="/dashboard" className={buttonClass("primary")}>
          Get Started
        </Link>
      </div>
    </div>
  );
}
