import { useLocation } from "@remix-run/react";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { dueReachOut, forgetReachOut, markLeft, type ReachOut } from "../reach-out";

// The dialog, with what it needs to log the answer, loads the first time there is a tap to ask about.
const ReachOutDialog = lazy(() => import("./ReachOutDialog"));

/**
 * "How did it go?" (ADR 0067): after a Call or Text tap (ReachOutLink), coming back to Porchlight asks for the
 * outcome, one tap each, and logs it as an activity at the moment of the tap. It goes through the field copy's queue
 * like any change made on the phone, so it is kept offline and sent when the connection is back; a logged call or
 * text also stops a new lead's speed-to-lead timer. `onLogged` runs once it has reached the server (the page re-reads).
 */
export function ReachOutPrompt({ userId, timezone, onLogged }: { userId: string; timezone: string; onLogged?: () => void }) {
  const [reach, setReach] = useState<ReachOut | null>(null);
  const location = useLocation();
  // An answer kept offline: once the connection is back and the queue sent, the page re-reads too.
  const [keptOffline, setKeptOffline] = useState(false);
  const sendThenRead = useCallback(
    () =>
      void import("../local-copy.client")
        .then((copy) => copy.syncCopy(userId))
        .then(() => {
          setKeptOffline(false);
          onLogged?.();
        }),
    [userId, onLogged],
  );
  useEffect(() => {
    if (!keptOffline) return;
    window.addEventListener("online", sendThenRead);
    return () => window.removeEventListener("online", sendThenRead);
  }, [keptOffline, sendThenRead]);

  const check = useCallback(() => {
    const due = dueReachOut(userId);
    if (due) setReach((shown) => shown ?? due);
  }, [userId]);

  useEffect(() => {
    const onVisibility = () => (document.visibilityState === "hidden" ? markLeft() : check());
    check();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("blur", markLeft);
    window.addEventListener("focus", check);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("blur", markLeft);
      window.removeEventListener("focus", check);
    };
  }, [check]);
  // Moving to another page of the app is coming back too (a desktop's tel: link may open nothing to leave for).
  useEffect(check, [check, location.pathname]);

  if (!reach) return null;
  return (
    <Suspense fallback={null}>
      <ReachOutDialog
        reach={reach}
        userId={userId}
        timezone={timezone}
        onDone={(outcome) => {
          forgetReachOut();
          setReach(null);
          if (outcome === "sent") sendThenRead();
          if (outcome === "kept") setKeptOffline(true);
        }}
      />
    </Suspense>
  );
}
