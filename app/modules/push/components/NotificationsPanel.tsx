import { useRevalidator } from "@remix-run/react";
import { BellRing } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/Button";

// Settings → Notifications (ADR 0032): new-lead alerts on this device, through the browser's Web Push.

type DeviceState = "checking" | "unsupported" | "blocked" | "off" | "on";

const fromBase64url = (text: string) => {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
};

async function registration() {
  return navigator.serviceWorker.ready;
}

async function send(method: "POST" | "DELETE", body: unknown): Promise<string | null> {
  const response = await fetch("/api/push/subscriptions", {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (response.ok) return null;
  const answer = (await response.json().catch(() => null)) as { error?: string } | null;
  return answer?.error ?? "Porchlight could not save that. Try again.";
}

export function NotificationsPanel({ publicKey, devices, className }: { publicKey: string; devices: number; className: string }) {
  const [state, setState] = useState<DeviceState>("checking");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const revalidator = useRevalidator();

  useEffect(() => {
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return setState("unsupported");
    if (Notification.permission === "denied") return setState("blocked");
    void registration()
      .then((reg) => reg.pushManager.getSubscription())
      .then((subscription) => setState(subscription ? "on" : "off"))
      .catch(() => setState("unsupported"));
  }, []);

  const turnOn = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setState(permission === "denied" ? "blocked" : "off");
        return;
      }
      const reg = await registration();
      const subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(publicKey) });
      const error = await send("POST", subscription.toJSON());
      if (error) {
        await subscription.unsubscribe();
        setMessage(error);
        return;
      }
      setState("on");
      setMessage("New-lead alerts are on for this device.");
      revalidator.revalidate();
    } catch {
      setMessage("This browser could not turn alerts on. Check that notifications are allowed for Porchlight, then try again.");
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const subscription = await (await registration()).pushManager.getSubscription();
      if (subscription) {
        const error = await send("DELETE", { endpoint: subscription.endpoint });
        if (error) {
          setMessage(error);
          return;
        }
        await subscription.unsubscribe();
      }
      setState("off");
      setMessage("New-lead alerts are off for this device.");
      revalidator.revalidate();
    } catch {
      setMessage("Porchlight could not turn alerts off. Try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="notifications-heading" className={className}>
      <h2 id="notifications-heading" className="flex items-center gap-2 text-lg font-semibold">
        <BellRing aria-hidden="true" className="h-5 w-5" /> New-lead alerts
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        When a new lead arrives, this device shows an alert at once, and a reminder if nobody has reached out to them five minutes later. The
        dashboard times every new lead until you log a first call, text or note.
      </p>
      <p className="mt-3 text-sm">
        {devices === 0 ? "Alerts are off on all your devices." : `Alerts are on for ${devices} ${devices === 1 ? "device" : "devices"}.`}
      </p>
      <div className="mt-4">
        {state === "unsupported" ? (
          <p className="text-sm text-stone-700 dark:text-stone-300">
            This browser cannot receive alerts. On an iPhone, add Porchlight to the Home Screen first, then open it from there.
          </p>
        ) : state === "blocked" ? (
          <p className="text-sm text-stone-700 dark:text-stone-300">
            Notifications are blocked for Porchlight in this browser. Allow them in the browser's site settings, then come back here.
          </p>
        ) : state === "on" ? (
          <Button type="button" variant="secondary" busy={busy} busyLabel="Turning off…" onClick={() => void turnOff()}>
            Turn off alerts on this device
          </Button>
        ) : (
          <Button
            type="button"
            busy={busy || state === "checking"}
            busyLabel={state === "checking" ? "Checking…" : "Turning on…"}
            onClick={() => void turnOn()}
          >
            Turn on alerts on this device
          </Button>
        )}
      </div>
      <p role="status" className="mt-2 text-sm font-medium">
        {message}
      </p>
    </section>
  );
}
