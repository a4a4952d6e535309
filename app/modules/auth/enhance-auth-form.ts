import { AUTH_MESSAGES, EMAIL_PATTERN, HONEYPOT_FIELD, type AuthMessage } from "./auth.messages";
import { registerClientAttempt } from "./client-attempts";
import { PASSWORD_MIN_LENGTH } from "./password";

/**
 * The sign-in form's browser behaviour. /auth is served without React (ADR 0011): the form posts natively and the
 * server answers every case itself; this adds what the browser can do first, on the markup app/routes/auth.tsx renders.
 * - Submitting: the e-mail check, the honeypot, the password length at sign-up and the attempt limit (spec section 5)
 *   stop the post with the field's error or the alert, and a toast; otherwise the button reads busy until the answer.
 * - Sign-up: the browser's timezone goes into the form; the password's length is checked as the agent types once
 *   the field has been left (or as soon as it is long enough).
 * - The show-password toggle (a pressed-state button).
 * Returns a function that removes the listeners.
 */
export function enhanceAuthForm(form: HTMLFormElement): () => void {
  const listening = new AbortController();
  const on = <K extends keyof HTMLElementEventMap>(target: HTMLElement, type: K, listener: (event: HTMLElementEventMap[K]) => void) =>
    target.addEventListener(type, listener as EventListener, { signal: listening.signal });
  const input = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
  const email = input("email")!;
  const password = input("password")!;
  const signup = input("mode")?.value === "signup";
  const alert = form.querySelector<HTMLElement>("[data-auth-alert]")!;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const label = button.textContent;

  const timezone = input("timezone");
  if (timezone) {
    try {
      timezone.value = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
    } catch {
      // An old browser without time zone support: the server uses the default.
    }
  }

  // A field's error, as FieldShell renders it: after the control, announced through aria-describedby, hint hidden.
  function showFieldError(field: HTMLInputElement, message: string) {
    const id = `${field.id}-error`;
    let error = document.getElementById(id);
    if (!error) {
      error = document.createElement("p");
      error.id = id;
      error.className = form.dataset.errorClass ?? "";
      form.querySelector(`label[for="${field.id}"]`)!.parentElement!.appendChild(error);
    }
    error.textContent = message;
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", id);
    const hint = document.getElementById(`${field.id}-hint`);
    if (hint) hint.hidden = true;
  }
  function clearFieldError(field: HTMLInputElement) {
    document.getElementById(`${field.id}-error`)?.remove();
    field.removeAttribute("aria-invalid");
    const hint = document.getElementById(`${field.id}-hint`);
    if (hint) {
      hint.hidden = false;
      field.setAttribute("aria-describedby", hint.id);
    } else field.removeAttribute("aria-describedby");
  }
  function showAlert(message: AuthMessage | null) {
    alert.hidden = !message;
    alert.querySelector("[data-title]")!.textContent = message?.title ?? "";
    alert.querySelector("[data-description]")!.textContent = message?.description ?? "";
    if (message) form.setAttribute("aria-describedby", alert.id);
    else form.removeAttribute("aria-describedby");
  }
  // A fresh copy of the hidden toast restarts its fade-out, and screen readers announce the new status.
  function showToast(message: AuthMessage) {
    const toast = document.getElementById("auth-toast")!;
    const fresh = toast.cloneNode(true) as HTMLElement;
    fresh.querySelector("[data-title]")!.textContent = message.title;
    fresh.querySelector("[data-description]")!.textContent = message.description;
    fresh.hidden = false;
    toast.replaceWith(fresh);
  }

  // Sign-up: the length is said as the agent types, once the field has been left or the value is long enough.
  let touched = false;
  const serverError = document.getElementById(`${password.id}-error`)?.textContent ?? null;
  function checkLength() {
    const tooShort = password.value.length > 0 && password.value.length < PASSWORD_MIN_LENGTH;
    const message = touched && tooShort ? AUTH_MESSAGES.passwordTooShort.description : serverError;
    if (message) showFieldError(password, message);
    else clearFieldError(password);
  }
  if (signup) {
    on(password, "input", () => {
      if (password.value.length >= PASSWORD_MIN_LENGTH) touched = true;
      checkLength();
    });
    on(password, "blur", () => {
      if (password.value.length > 0) touched = true;
      checkLength();
    });
  }

  const toggle = form.querySelector<HTMLButtonElement>(`button[aria-controls="${password.id}"]`)!;
  on(toggle, "click", () => {
    const shown = toggle.getAttribute("aria-pressed") !== "true";
    toggle.setAttribute("aria-pressed", String(shown));
    password.type = shown ? "text" : "password";
  });

  on(form, "submit", (event) => {
    const fail = (message: AuthMessage, field?: HTMLInputElement) => {
      event.preventDefault();
      if (field) showFieldError(field, message.description);
      else showAlert(message);
      showToast(message);
    };
    showAlert(null);
    clearFieldError(email);
    const values = new FormData(form);
    if (String(values.get(HONEYPOT_FIELD) ?? "") !== "") return fail(AUTH_MESSAGES.honeypot);
    if (!EMAIL_PATTERN.test(String(values.get("email") ?? "").trim())) return fail(AUTH_MESSAGES.invalidEmail, email);
    if (signup && String(values.get("password") ?? "").length < PASSWORD_MIN_LENGTH) return fail(AUTH_MESSAGES.passwordTooShort, password);
    if (!registerClientAttempt(window.sessionStorage)) return fail(AUTH_MESSAGES.tooManyAttempts);
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    button.textContent = button.dataset.busyLabel ?? label;
  });
  // Back/forward cache: a page restored after sending gets its button back.
  window.addEventListener(
    "pageshow",
    () => {
      button.disabled = false;
      button.removeAttribute("aria-busy");
      button.textContent = label;
    },
    { signal: listening.signal },
  );
  return () => listening.abort();
}
