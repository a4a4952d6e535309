import { homesCom } from "./homes-com";
import type { Portal } from "./portal";
import {
  COMMON_LABELS,
  fieldValue,
  findEmail,
  findLink,
  findMls,
  findPhone,
  findPriceCents,
  findStreetAddress,
  forwardedBody,
  forwardedFrom,
  isAt,
  personName,
  type LeadGuess,
  type MailInput,
  type PropertyGuess,
  type Reading,
} from "./read";
import { realtorCom } from "./realtor-com";
import { redfin } from "./redfin";
import { trulia } from "./trulia";
import { zillow } from "./zillow";

export type { MailInput, Reading } from "./read";

/** The portals whose lead e-mails are recognised, by their sender. */
const PORTALS: readonly Portal[] = [zillow, realtorCom, homesCom, redfin, trulia];

/**
 * What a lead e-mail says (ADR 0065): the portal it came from (by its sender, or the sender inside a forward), else a
 * website form (labelled name and e-mail or phone, as IDX sites and form builders send them), else unknown. An unknown
 * e-mail still gets a best guess (the sender as the lead, whatever is labelled) for the agent to review.
 * `intakeDomain`'s addresses are never the lead's.
 */
export function readLeadEmail(mail: MailInput, intakeDomain: string): Reading {
  const forward = forwardedFrom(mail.text);
  const senders = [forward?.address, mail.from.address].filter((a): a is string => Boolean(a));
  const portal = PORTALS.find((p) => senders.some((sender) => p.domains.some((domain) => isAt(sender, domain)))) ?? null;
  const body = forward ? forwardedBody(mail.text) : mail.text;
  const labels = portal?.labels ?? COMMON_LABELS;
  // The portal's addresses, the intake address and, in a forward, the agent who forwarded it are not the lead.
  const notLead = (address: string) =>
    isAt(address, intakeDomain) ||
    (portal?.domains.some((domain) => isAt(address, domain)) ?? false) ||
    (forward !== null && address === mail.from.address.toLowerCase());
  const replyTo = mail.replyTo && !notLead(mail.replyTo.address.toLowerCase()) ? mail.replyTo : null;

  const labelled = {
    name: personName(fieldValue(body, labels.name)) ?? personName(joinName(fieldValue(body, labels.firstName), fieldValue(body, labels.lastName))),
    email: findEmail(fieldValue(body, labels.email), notLead),
    phone: findPhone(fieldValue(body, labels.phone)),
  };
  const subjectName = portal?.subjectName?.exec(mail.subject.replace(/^(?:(?:fwd?|fw):\s*)+/i, ""))?.[1];
  const lead: LeadGuess = {
    name: labelled.name ?? personName(subjectName) ?? personName(replyTo?.name),
    email: labelled.email ?? replyTo?.address.toLowerCase() ?? (portal ? findEmail(body, notLead) : null),
    phone: labelled.phone ?? (portal ? findPhone(body) : null),
    message: fieldValue(body, labels.message, true),
    property: property(body, mail.subject, labels, portal),
  };

  if (portal)
    return { format: portal.format, source: portal.source, lead, complete: lead.name !== null && (lead.email !== null || lead.phone !== null) };
  if (labelled.name && (labelled.email || labelled.phone)) return { format: "website_form", source: "website", lead, complete: true };
  // Not understood: the sender is the best guess for a person who wrote in their own words.
  const sender = forward ?? mail.from;
  const guess: LeadGuess = {
    ...lead,
    name: lead.name ?? personName(sender.name),
    email: lead.email ?? (notLead(sender.address.toLowerCase()) ? null : sender.address.toLowerCase()),
    phone: lead.phone ?? findPhone(body),
    message: lead.message ?? (body.trim().slice(0, 2_000) || null),
  };
  return { format: "unknown", source: "other", lead: guess, complete: false };
}

function joinName(first: string | null, last: string | null): string | null {
  const name = [first, last].filter(Boolean).join(" ");
  return name === "" ? null : name;
}

function property(body: string, subject: string, labels: Portal["labels"], portal: Portal | null): PropertyGuess | null {
  const labelledMls = fieldValue(body, labels.mls);
  const found: PropertyGuess = {
    address: fieldValue(body, labels.address) ?? streetAddress(findStreetAddress(subject), findStreetAddress(body)),
    mls: labelledMls ? (/[A-Z0-9][A-Z0-9-]{3,19}/i.exec(labelledMls)?.[0] ?? null) : findMls(body),
    priceCents: findPriceCents(fieldValue(body, labels.price)) ?? (portal ? findPriceCents(body) : null),
    url: portal ? findLink(body, portal.listingHosts) : null,
  };
  return found.address || found.mls || found.url ? found : null;
}

/** The listing's street address: the subject's (it names the home asked about), or the body's when it is the same one
 * written in full (with its city), or the body's alone. */
function streetAddress(subject: string | null, body: string | null): string | null {
  if (subject && body && !body.startsWith(subject)) return subject;
  return body ?? subject;
}
