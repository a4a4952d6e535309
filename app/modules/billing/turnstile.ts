/** The form field Cloudflare Turnstile puts its token in (shared by the widget and the server). */
export const TURNSTILE_FIELD = "cf-turnstile-response";
