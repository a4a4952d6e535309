import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { CheckList } from "~/components/CheckList";
import { Bot, KanbanSquare, UserPlus } from "lucide-react";
import { useEffect } from "react";
import { PublicHeader } from "~/components/PublicHeader";
import { buttonClass } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { requireSubscriber, requireUser } from "~/modules/auth/guards.server";
import { appOrigin } from "~/lib/context.server";
import { WELCOME_TOAST } from "~/modules/billing/billing.messages";
import { syncCompletedCheckout } from "~/modules/billing/checkout.server";
import { sendWelcomeEmailOnce } from "~/modules/billing/welcome.server";

export const meta: MetaFunction = () => [{ title: "Welcome — Porchlight" }];

// Straight after checkout (success=1) Stripe's confirmation may still be on its way, so the page needs only
// a signed-in user and confirms the subscription from the browser. Otherwise it is a normal protected page.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  if (params.get("success") !== "1") {
    await requireSubscriber(request, context);
    return null;
  }
  const user = await requireUser(request, context);
  const sessionId = params.get("session_id");
  if (sessionId) {
    const synced = await syncCompletedCheckout(context, user, sessionId);
    if (synced) await sendWelcomeEmailOnce(context, appOrigin(context, request), user.id);
  }
  return null;
}

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

type SubscriptionCheck = { subscribed: boolean; status: string | null; plan: string | null };
const CHECK_ATTEMPTS = 8;
const CHECK_INTERVAL_MS = 1500;

/** check-subscription (spec section 4): after checkout, greet once the subscription is confirmed. */
function useWelcomeToast(success: boolean) {
  useEffect(() => {
    if (!success) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async (attempt: number) => {
      try {
        const response = await fetch("/api/check-subscription", { headers: { Accept: "application/json" } });
        const body = (await response.json()) as SubscriptionCheck;
        if (cancelled) return;
        if (body.subscribed) {
          toast({ title: WELCOME_TOAST.title, variant: "success" });
          return;
        }
      } catch (error) {
        // Spec: a failed check is only logged.
        console.warn("Subscription check failed", error);
        return;
      }
      if (attempt < CHECK_ATTEMPTS) timer = setTimeout(() => void check(attempt + 1), CHECK_INTERVAL_MS);
    };
    void check(1);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [success]);
}

export default function WelcomePage() {
  const [params] = useSearchParams();
  const trial = params.get("trial") === "1";
  useWelcomeToast(params.get("success") === "1");
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="mx-auto flex w-full max-w-5xl flex-col gap-8 px-4 pb-16 pt-4">
        <div>
          {/* The greeting is the spec's welcome toast; the page says the trial has started (once) and what to do next. */}
          <h1 className="text-3xl font-bold">Here is where to begin</h1>
          <p className="mt-2 text-lg text-stone-700 dark:text-stone-300">
            {trial
              ? "Your 14-day free trial has started, with every premium feature included."
              : "Your subscription is active and every feature is ready."}
          </p>
        </div>
        <ul className="grid gap-4 md:grid-cols-3">
          {CARDS.map(({ to, icon: Icon, title, body }) => (
            <li key={to}>
              <Link
                to={to}
                className="flex h-full flex-col gap-2 rounded-2xl border border-stone-200 bg-white p-5 hover:border-brand-600 dark:border-stone-800 dark:bg-stone-900"
              >
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
          <CheckList items={INCLUDED} />
        </section>
        <div className="flex flex-wrap items-center gap-4">
          <Link to="/dashboard" className={buttonClass("primary")}>
            Get Started
          </Link>
          <Link to="/support" className={buttonClass("secondary")}>
            Support Center
          </Link>
        </div>
      </main>
    </div>
  );
}
