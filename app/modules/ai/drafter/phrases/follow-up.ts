import { PORTAL_SOURCES, type PortalSource } from "~/db/enums";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import type { DraftContact, DraftTone } from "../../draft-types";

// The follow-up e-mail's wording: plain data (strings, and one-line templates for the facts they name), chosen by
// ../writers/follow-up.ts by tone, situation and variant.

/** The kind of the last activity, from the first words of its summary: how the e-mail names it, and whether one thanks the client for it. */
export const ACTIVITY_KINDS: [RegExp, string, boolean][] = [
  [/open[\s-]?house/i, "the open house", true],
  [/showing|tour|viewing|walk-?through/i, "the showing", true],
  [/meeting|consultation|coffee|appointment/i, "our meeting", true],
  [/\bcall|phone|spoke/i, "our call", true],
  [/e-?mail/i, "my last e-mail", false],
  [/\btext|sms|message/i, "my last message", false],
  [/offer/i, "the offer", false],
  [/contract/i, "the contract", false],
];

export type Opener = (ref: string) => string;
export const OPENERS: Record<DraftTone, { any: readonly Opener[]; thanks: Opener; long: Opener }> = {
  friendly: {
    any: [
      (r) => `I hope you've had a chance to think things over since ${r}.`,
      (r) => `I wanted to follow up on ${r} and see how you're feeling.`,
      (r) => `I've been thinking about ${r} and wanted to check in.`,
    ],
    thanks: (r) => `Thanks again for your time during ${r}. It was great to catch up.`,
    long: (r) => `It's been a while since ${r}, so I wanted to check in and see how you're doing.`,
  },
  professional: {
    any: [
      (r) => `I am following up on ${r}.`,
      (r) => `I wanted to follow up on ${r} and outline the next steps.`,
      (r) => `Following ${r}, I wanted to check in on your plans.`,
    ],
    thanks: (r) => `Thank you again for your time during ${r}.`,
    long: (r) => `It has been some time since ${r}, and I wanted to check in on your plans.`,
  },
  concise: {
    any: [(r) => `Following up on ${r}.`, (r) => `Quick follow-up on ${r}.`, (r) => `Circling back on ${r}.`],
    thanks: (r) => `Thanks for your time during ${r}.`,
    long: (r) => `Checking in. It's been a while since ${r}.`,
  },
  enthusiastic: {
    any: [
      (r) => `I've been looking forward to following up on ${r}!`,
      (r) => `I'm excited to pick things up after ${r}!`,
      (r) => `I've been thinking about ${r} ever since!`,
    ],
    thanks: (r) => `It was so great spending time with you during ${r}!`,
    long: (r) => `It's been a while since ${r}, and I'd love to catch up!`,
  },
};

/** A portal lead's opener in each tone: they asked about a listing they saw on `portal`. */
const PORTAL_OPENER: Record<DraftTone, (portal: string) => string> = {
  friendly: (portal) => `Thanks for reaching out about the home you saw on ${portal}.`,
  professional: (portal) => `Thank you for your inquiry through ${portal}.`,
  concise: (portal) => `Following up on your ${portal} inquiry.`,
  enthusiastic: (portal) => `Thanks so much for reaching out on ${portal}!`,
};
const portalOpeners = (tone: DraftTone) =>
  Object.fromEntries(PORTAL_SOURCES.map((source) => [source, PORTAL_OPENER[tone](SOURCE_LABELS[source])])) as Record<PortalSource, string>;

export const SOURCE_OPENERS: Record<DraftTone, Record<DraftContact["source"], string>> = {
  friendly: {
    website: "Thanks for reaching out through my website.",
    referral: "I'm so glad we were introduced.",
    cold_call: "Thanks again for taking my call.",
    social_media: "Thanks for connecting with me online.",
    open_house: "It was great meeting you at the open house.",
    other: "I hope you're doing well.",
    ...portalOpeners("friendly"),
  },
  professional: {
    website: "Thank you for your inquiry through my website.",
    referral: "Thank you for the opportunity to help with your plans.",
    cold_call: "Thank you for taking my call.",
    social_media: "Thank you for connecting with me online.",
    open_house: "Thank you for visiting the open house.",
    other: "I hope this message finds you well.",
    ...portalOpeners("professional"),
  },
  concise: {
    website: "Following up on your website inquiry.",
    referral: "Following up on the introduction.",
    cold_call: "Following up on our call.",
    social_media: "Following up from online.",
    open_house: "Following up from the open house.",
    other: "Checking in.",
    ...portalOpeners("concise"),
  },
  enthusiastic: {
    website: "Thanks so much for reaching out through my website!",
    referral: "I'm thrilled we were introduced!",
    cold_call: "It was great talking with you!",
    social_media: "So glad we connected online!",
    open_house: "It was wonderful meeting you at the open house!",
    other: "I hope you're having a great week!",
    ...portalOpeners("enthusiastic"),
  },
};

export type Search = (home: string, budget: string) => string;
export const SEARCH_LINES: Record<DraftTone, readonly Search[]> = {
  friendly: [
    (h, b) => `I've been keeping an eye out for ${h}${b}, and I'd love to send a few options your way.`,
    (h, b) => `I'm still watching for ${h}${b}, so you'll hear from me as soon as something fits.`,
    (h, b) => `I've been looking at ${h}${b} for you. Has anything on your wish list changed?`,
  ],
  professional: [
    (h, b) => `I continue to monitor new listings for ${h}${b}.`,
    (h, b) => `I am reviewing the market for ${h}${b} and will share any property that matches your criteria.`,
    (h, b) => `Your search for ${h}${b} remains a priority, and I will send matching listings as they come up.`,
  ],
  concise: [(h, b) => `Still watching for ${h}${b}.`, (h, b) => `Keeping an eye out for ${h}${b}.`, (h, b) => `Tracking ${h}${b} for you.`],
  enthusiastic: [
    (h, b) => `I'm on the lookout for ${h}${b}, and I can't wait to find the right one for you!`,
    (h, b) => `Finding ${h}${b} is at the top of my list!`,
    (h, b) => `I'm excited to keep searching for ${h}${b} with you!`,
  ],
};

export type HomeLine = (home: string) => string;
export const SELLER_LINES: Record<DraftTone, readonly HomeLine[]> = {
  friendly: [
    (h) => `I've been keeping an eye on the market around your ${h}, and I'll keep you posted on anything that matters for your sale.`,
    (h) => `I'm keeping a close watch on activity around your ${h}.`,
    (h) => `I've been thinking about the best next move for your ${h}.`,
  ],
  professional: [
    (h) => `I continue to monitor market activity relevant to your ${h}.`,
    (h) => `I am tracking activity around your ${h} and will keep you informed.`,
    (h) => `Your ${h} remains a priority, and I will keep you informed of any relevant activity.`,
  ],
  concise: [
    (h) => `Watching the market around your ${h}.`,
    (h) => `Tracking activity around your ${h}.`,
    (h) => `Keeping an eye on the market for your ${h}.`,
  ],
  enthusiastic: [
    (h) => `I'm so excited to get your ${h} in front of the right buyers!`,
    (h) => `Your ${h} is going to get the attention it deserves!`,
    (h) => `I can't wait to show off your ${h}!`,
  ],
};

export const SINCE_CLOSING: Record<DraftTone, readonly string[]> = {
  friendly: [
    "It's been a little while since closing, and I wanted to see how everything is going.",
    "I hope everything has gone smoothly since closing.",
  ],
  professional: ["I wanted to check in and see how everything has been since closing.", "I trust everything has gone smoothly since closing."],
  concise: ["Checking in since closing."],
  enthusiastic: ["I hope you're loving life since closing!", "I hope everything has been wonderful since closing!"],
};

export const NO_SEARCH: Record<DraftTone, readonly string[]> = {
  friendly: [
    "If anything about your plans has changed, just let me know so I can send you the right options.",
    "I'd love to hear what's at the top of your wish list right now.",
  ],
  professional: [
    "Please let me know if your requirements have changed so I can tailor my search.",
    "I would welcome an update on your priorities so I can focus my search.",
  ],
  concise: ["Let me know if your plans have changed."],
  enthusiastic: ["I'd love to hear what's on your wish list!", "Tell me everything you're hoping for, and I'll get to work!"],
};

export interface Step {
  long: readonly string[];
  short: string;
}
/** A next step: the concise wording first, then the longer ones the variant picks from. */
const step = (short: string, ...long: string[]): Step => ({ short, long });
export const NEXT_STEPS: Record<string, Step> = {
  lead: step(
    "Free for a 15-minute call this week?",
    "Would you have 15 minutes this week for a quick call about your timeline and must-haves?",
    "Could we set up a short call this week to go over what matters most to you?",
  ),
  qualified: step(
    "Which days work for showings this week?",
    "The next step is getting you into a few homes. Which days work best for showings this week?",
    "I'd like to line up a first round of showings. Which days suit you?",
  ),
  showing: step(
    "Want me to book more showings this week?",
    "Shall I line up a few more showings? Let me know which days work for you this week.",
    "If any of the homes stood out, let's talk it through. Are you free for a quick call this week?",
  ),
  offer: step(
    "Can we talk about the offer tomorrow?",
    "Let's talk through the offer and our next move. Are you free for a quick call tomorrow?",
    "I'd like to walk you through where the offer stands. When is a good time to talk?",
  ),
  under_contract: step(
    "Closing{close}: I'll keep you posted.",
    "We're on the way to closing{close}. I'll keep you posted on each remaining step, so call me with any question along the way.",
    "Next up is getting everything ready for closing{close}. If anything comes up with your lender or paperwork, let me know right away.",
  ),
  closed_won: step(
    "Let me know if you need anything.",
    "If friends or family are thinking about buying or selling, I'd be glad to help them too.",
    "If there's anything you need as you settle in, I'm only a call away.",
  ),
  closed_lost: step(
    "Ready when you are to start again.",
    "Whenever you're ready to start looking again, I'd be glad to pick the search back up.",
    "When the timing feels right, I'm here to start fresh.",
  ),
  none: step(
    "Free for a quick call this week?",
    "Would you have 15 minutes this week for a quick call?",
    "Would you like to see a few homes this week? Let me know which days work best.",
    "Let me know a good time to catch up this week.",
  ),
  after_showing: step(
    "More showings this week?",
    "Would you like to see a few more homes this week? Let me know which days work best.",
    "Which homes are still on your mind? I'm happy to book second visits or new showings this week.",
  ),
  custom: step(
    "Free to talk next steps this week?",
    "Could we find 15 minutes this week to go over the next step?",
    "Let me know a good time this week to talk about next steps.",
  ),
};

export const SELLER_STEPS: Record<string, Step> = {
  lead: step(
    "Free this week to walk through pricing and timing?",
    "Could we set up a time this week to walk through your home and talk about pricing and timing?",
    "I'd love to walk through your home and share a pricing plan. Which day works this week?",
  ),
  qualified: step(
    "Can we go over the listing plan this week?",
    "I'd like to go over the listing plan with you: photos, pricing and timing. When suits you this week?",
    "Next up is the listing plan. Could we meet this week to finalise photos and pricing?",
  ),
  showing: step(
    "Quick call this week about showing feedback?",
    "I'll pass along feedback from each showing as it comes in. Are you free for a quick call this week to go over it?",
    "Could we find 15 minutes this week to go over the showing feedback so far?",
  ),
  none: step(
    "Free this week to talk timing and pricing?",
    "Would you have 15 minutes this week to talk about timing and pricing?",
    "Let me know a good time this week to talk through your plans for the sale.",
  ),
};

export const GREETINGS: Record<DraftTone, { named: readonly string[]; anon: readonly string[] }> = {
  friendly: { named: ["Hi {n},", "Hey {n},", "Hello {n},"], anon: ["Hi there,", "Hello,", "Hi,"] },
  professional: { named: ["Dear {n},", "Hello {n},", "Dear {n},"], anon: ["Hello,", "Good day,", "Greetings,"] },
  concise: { named: ["Hi {n},", "{n},", "Hello {n},"], anon: ["Hi,", "Hello,", "Hi there,"] },
  enthusiastic: { named: ["Hi {n}!", "Hey {n}!", "Hello {n}!"], anon: ["Hi there!", "Hello!", "Hey there!"] },
};

export const EMAIL_CLOSINGS: Record<DraftTone, readonly string[]> = {
  friendly: ["Talk soon,", "Warmly,", "Cheers,"],
  professional: ["Best regards,", "Kind regards,", "Sincerely,"],
  concise: ["Thanks,", "Best,", "Thanks,"],
  enthusiastic: ["Can't wait to hear from you!", "Talk soon!", "Excited for what's next!"],
};

export const WRAP_UPS: Record<DraftTone, readonly string[]> = {
  friendly: ["Just reply here or give me a call anytime.", "Looking forward to hearing from you.", "Have a great rest of your week!"],
  professional: [
    "Please do not hesitate to contact me with any questions.",
    "I look forward to hearing from you.",
    "Thank you, and I look forward to speaking soon.",
  ],
  concise: [],
  enthusiastic: ["This is going to be great!", "Let's make it happen!", "I'm here whenever you're ready!"],
};

export const POINT_LEADS: Record<DraftTone, readonly string[]> = {
  friendly: ["", "One more thing: ", "Also, a quick note: "],
  professional: ["", "Please also note: ", "In addition: "],
  concise: [""],
  enthusiastic: ["", "And one more thing: ", "Also: "],
};

/** Subject lines by situation, the first that applies: the deal's stage, a showing, the contact's area, else none. */
export const SUBJECTS = {
  under_contract: ["Next steps before closing", "Your closing: where things stand", "On the road to closing"],
  closed_won: ["Checking in after closing", "How are things since closing?", "A quick hello"],
  offer: ["About the offer", "Where the offer stands", "Next steps on the offer"],
  showing: ["Following up on the showing", "Thoughts after the showing?", "After our showing"],
  place: (place: string) => [`Your ${place} search`, `Homes in ${place}`, `Following up on ${place}`],
  none: ["Checking in", "Following up", "A quick hello"],
} as const;

/**
 * Stages past the search: the offer is in or the home is under contract. The e-mail names the home the deal is about
 * and never says the agent is still looking; the next-step line says what comes.
 */
export type PastSearch = "offer" | "under_contract";
export const PAST_SEARCH_LINES: Record<"buyer" | "seller", Record<PastSearch, Record<DraftTone, HomeLine>>> = {
  buyer: {
    offer: {
      friendly: (h) => `Your offer on ${h} is in, and I'll let you know the moment the sellers answer.`,
      professional: (h) => `Your offer on ${h} has been submitted, and I will share the sellers' response as soon as I receive it.`,
      concise: (h) => `Your offer on ${h} is in.`,
      enthusiastic: (h) => `Your offer on ${h} is in, and I'm hopeful!`,
    },
    under_contract: {
      friendly: (h) => `Your purchase of ${h} is under contract.`,
      professional: (h) => `Your purchase of ${h} is under contract.`,
      concise: (h) => `Your purchase of ${h} is under contract.`,
      enthusiastic: (h) => `Your purchase of ${h} is under contract. Congratulations!`,
    },
  },
  seller: {
    offer: {
      friendly: (h) => `We have an offer on your ${h}, and I'll walk you through it.`,
      professional: (h) => `An offer has come in on your ${h}, and I will review it with you.`,
      concise: (h) => `There's an offer on your ${h}.`,
      enthusiastic: (h) => `Great news: there's an offer on your ${h}!`,
    },
    under_contract: {
      friendly: (h) => `Your ${h} is under contract.`,
      professional: (h) => `Your ${h} is under contract.`,
      concise: (h) => `Your ${h} is under contract.`,
      enthusiastic: (h) => `Your ${h} is under contract. Congratulations!`,
    },
  },
};
