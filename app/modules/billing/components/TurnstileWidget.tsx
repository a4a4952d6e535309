import { useEffect, useRef } from "react";

type Turnstile = {
  render: (el: HTMLElement, options: { sitekey: string; theme: string; "response-field-name": string }) => string;
  remove: (id: string) => void;
};
declare global {
  interface Window {
    turnstile?: Turnstile;
  }
}

const SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
let loading: Promise<Turnstile> | null = null;

// Loaded when the widget mounts (spec: the captcha script loads with the trial step), from a trusted script,
// which the CSP's 'strict-dynamic' allows.
function loadTurnstile(): Promise<Turnstile> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error("Turnstile did not load")));
    script.onerror = () => {
      loading = null;
      reject(new Error("Turnstile did not load"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Cloudflare Turnstile; its token goes into the form as `fieldName`. */
export function TurnstileWidget({ siteKey, fieldName }: { siteKey: string; fieldName: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let id: string | null = null;
    let cancelled = false;
    loadTurnstile()
      .then((turnstile) => {
        if (cancelled || !ref.current) return;
        id = turnstile.render(ref.current, { sitekey: siteKey, theme: "auto", "response-field-name": fieldName });
      })
      .catch((error: unknown) => console.warn(error));
    return () => {
      cancelled = true;
      if (id && window.turnstile) window.turnstile.remove(id);
    };
  }, [siteKey, fieldName]);
  return <div ref={ref} className="min-h-16" />;
}
