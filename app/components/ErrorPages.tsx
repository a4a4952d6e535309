import { isRouteErrorResponse, Link } from "@remix-run/react";
import { buttonClass } from "./ui/Button";

/** Spec: any unknown path shows '404', 'Oops! Page not found' and 'Return to Home'. */
export function NotFound() {
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-6xl font-bold text-brand-700 dark:text-brand-400">404</h1>
      <p className="text-xl text-stone-700 dark:text-stone-300">Oops! Page not found</p>
      <Link to="/" className={buttonClass("primary")}>
        Return to Home
      </Link>
    </main>
  );
}

/** `message`: the sentence a 4xx answer gave (for example why a form could not be read), shown as it is. */
export function ErrorPage({ status, inApp = false, message }: { status: number; inApp?: boolean; message?: string }) {
  return (
    <main id="main" className="flex min-h-[60dvh] flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="max-w-md text-stone-700 dark:text-stone-300">
        {status >= 500
          ? "We could not load this page. Your data is safe; please try again in a moment."
          : `${message ? `${message} ` : ""}This request could not be completed (error ${status}).`}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <button type="button" className={buttonClass("primary")} onClick={() => window.location.reload()}>
          Try again
        </button>
        <Link to={inApp ? "/dashboard" : "/"} className={buttonClass("secondary")}>
          {inApp ? "Back to Dashboard" : "Return to Home"}
        </Link>
      </div>
    </main>
  );
}

/** A 4xx answer's own sentence (a thrown Response with a short text body), for ErrorPage's `message`. */
export function clientErrorMessage(error: unknown): string | undefined {
  if (!isRouteErrorResponse(error) || error.status >= 500 || typeof error.data !== "string") return undefined;
  const text = error.data.trim();
  return text && text.length <= 300 && !text.startsWith("<") ? text : undefined;
}
