import { PublicHeader } from "~/components/PublicHeader";

export function AuthLayout({ title, intro, children }: { title: string; intro?: React.ReactNode; children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      {/* wrap-anywhere: the e-mail address these pages show wraps on a phone instead of widening the page. */}
      <main id="main" className="mx-auto flex w-full min-w-0 max-w-md flex-1 flex-col justify-center px-4 pb-16 wrap-anywhere">
        <h1 className="text-3xl font-bold">{title}</h1>
        {intro ? <div className="mt-2 text-stone-600 dark:text-stone-400">{intro}</div> : null}
        <div className="mt-8">{children}</div>
      </main>
    </div>
  );
}
