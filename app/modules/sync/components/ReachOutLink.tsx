import { useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { rememberReachOut, type ReachKind } from "../reach-out";

/**
 * A Call (tel:) or Text (sms:) link to a contact that remembers the tap, so that coming back to Porchlight asks how
 * it went (ReachOutPrompt). Inside the signed-in app the agent is the layout's; the field view passes its own.
 */
export function ReachOutLink({
  contact,
  phone,
  kind,
  userId,
  className,
  label,
  body,
  children,
}: {
  contact: { id: string; name: string };
  phone: string;
  kind: ReachKind;
  userId?: string;
  className?: string;
  label?: string;
  /** A text's words, written into the phone's messages app (a text template filled in). */
  body?: string;
  children: ReactNode;
}) {
  const layout = useRouteLoaderData<{ userId?: string }>("routes/_app");
  const agent = userId ?? layout?.userId;
  return (
    <a
      // "?&body=" is read by both iOS and Android messages apps.
      href={`${kind === "call" ? "tel" : "sms"}:${phone}${kind === "text" && body ? `?&body=${encodeURIComponent(body)}` : ""}`}
      className={className}
      aria-label={label}
      title={label}
      onClick={() => {
        if (agent) rememberReachOut({ userId: agent, contactId: contact.id, name: contact.name, kind });
      }}
    >
      {children}
    </a>
  );
}
