import { wipeThenSubmit } from "~/modules/sync/use-field-copy";

/**
 * Sign out (or sign out everywhere): deletes the field copies this device keeps before the request goes,
 * then posts as a plain form, so the server's answer replaces the page whatever state the app was in.
 */
export function SignOutForm({ everywhere = false, className, children }: { everywhere?: boolean; className?: string; children: React.ReactNode }) {
  return (
    <form method="post" action="/auth/signout" className={className} onSubmit={wipeThenSubmit}>
      {everywhere ? <input type="hidden" name="scope" value="everywhere" /> : null}
      {children}
    </form>
  );
}
