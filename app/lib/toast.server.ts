import { redirect } from "@remix-run/cloudflare";
import { readCookie, serializeCookie, clearCookie } from "./cookies";
import type { RequestContext } from "./context.server";
import { base64url, fromBase64url, hmacSign, hmacVerify, newId } from "./crypto";
import type { ToastMessage } from "./toast";

const TOAST_COOKIE = "porchlight_toast";

/** A Set-Cookie header carrying a toast to the next page (shown once, then cleared). */
async function toastCookie(context: RequestContext, toast: Omit<ToastMessage, "id">): Promise<string> {
  const payload = base64url(new TextEncoder().encode(JSON.stringify({ ...toast, id: newId() })));
  const signature = await hmacSign(context.config.SESSION_SECRET, `toast|${payload}`);
  return serializeCookie(TOAST_COOKIE, `${payload}.${signature}`, { maxAge: 60 });
}

export async function redirectWithToast(context: RequestContext, to: string, toast: Omit<ToastMessage, "id">, headers: HeadersInit = {}) {
  const all = new Headers(headers);
  all.append("Set-Cookie", await toastCookie(context, toast));
  return redirect(to, { headers: all });
}

/** The pending toast, if any, and the header that clears it. */
export async function readToast(context: RequestContext, request: Request): Promise<{ toast: ToastMessage | null; setCookie: string | null }> {
  const raw = readCookie(request.headers.get("Cookie"), TOAST_COOKIE);
  if (!raw) return { toast: null, setCookie: null };
  const [payload, signature] = raw.split(".");
  const cleared = clearCookie(TOAST_COOKIE);
  if (!payload || !signature || !(await hmacVerify(context.config.SESSION_SECRET, `toast|${payload}`, signature))) {
    return { toast: null, setCookie: cleared };
  }
  try {
    const toast = JSON.parse(new TextDecoder().decode(fromBase64url(payload))) as ToastMessage;
    return { toast, setCookie: cleared };
  } catch {
    return { toast: null, setCookie: cleared };
  }
}
