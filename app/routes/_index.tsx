import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { PublicHeader } from "~/components/PublicHeader";
import { buttonClass } from "~/components/ui/Button";
import { getUser } from "~/modules/auth/guards.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return { signedIn: (await getUser(request, context)) !== null };
}

export default function Landing() {
  const { signedIn } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader>
        {signedIn ? (
          <Link to="/dashboard" className={buttonClass("ghost")}>
            Dashboard
          </Link>
        ) : (
          <Link to="/auth" className={buttonClass("ghost")}>
            Sign In
          </Link>
        )}
      </PublicHeader>
      <main id="main" className="mx-auto flex w-full max-w-3xl flex-1 flex-col justify-center gap-6 px-4 pb-20">
        <h1 className="text-4xl font-bold leading-tight md:text-6xl">The AI CRM for real estate agents</h1>
        <p className="text-lg text-stone-700 md:text-xl dark:text-stone-300">
          Contacts, pipeline, tasks and commissions in one place that is instant on your phone, with AI that writes from your own data.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link to="/auth?mode=signup" className={buttonClass("primary")}>
            Start Free Trial
          </Link>
          <Link to="/auth" className={buttonClass("secondary")}>
            Sign In
          </Link>
        </div>
        <p className="text-sm text-stone-600 dark:text-stone-400">14-day free trial · card required · cancel anytime</p>
      </main>
    </div>
  );
}
