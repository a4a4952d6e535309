// Fixed-window counters in KV (the design card's choice). KV is eventually consistent and has no atomic
// increment, so under a burst spread across locations a few extra requests can pass; the exact per-account
// lockout in D1 (auth/lockout) is the hard stop for password guessing. See docs/decisions/0003.
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

export const RATE_LIMITS = {
  signinIp: { limit: 5, windowSeconds: 60 },
  signinEmail: { limit: 5, windowSeconds: 60 },
  signupIp: { limit: 10, windowSeconds: 3600 },
  emailLink: { limit: 5, windowSeconds: 3600 },
  trialCheckout: { limit: 10, windowSeconds: 3600 },
  // Team invitations, per team: a real team invites a handful at a time; no way to mail-bomb from it.
  teamInvite: { limit: 30, windowSeconds: 3600 },
  contactForm: { limit: 5, windowSeconds: 3600 },
  // A team's public lead form, per address and sender: a real enquirer writes once or twice.
  leadForm: { limit: 5, windowSeconds: 3600 },
  // E-mails to one lead intake address: a busy agent's portals send dozens a day, a backlog forwarded at once some
  // hundreds (the bench sends 1,000 in one go); a mail loop stops here.
  leadIntake: { limit: 1_000, windowSeconds: 3600 },
  // Replies to one e-mail's reply address: a conversation is a handful of e-mails; a mail loop stops here.
  replyEmail: { limit: 30, windowSeconds: 3600 },
  // Leads through one lead API key: a Zap or a website sends a few at a time; a runaway loop stops here.
  leadApi: { limit: 60, windowSeconds: 60 },
  // A full export reads every row the agent has: ample for real use, no way to load D1 in a loop.
  dataExport: { limit: 10, windowSeconds: 3600 },
  // Password tries before a deletion in Settings → Data: the password is checked, so it must not be guessable.
  dataErase: { limit: 5, windowSeconds: 3600 },
  // E-mails an agent sends contacts, by hand and by plans, per day: far above a busy agent's day, far below what
  // would hurt a sending reputation or a Gmail account's daily limit.
  contactEmail: { limit: 300, windowSeconds: 86_400 },
} satisfies Record<string, RateLimitRule>;

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

// KV's minimum expirationTtl is 60 seconds.
const MIN_KV_TTL = 60;

export async function hitRateLimit(
  kv: KVNamespace,
  bucket: string,
  subject: string,
  rule: RateLimitRule,
  now = Date.now(),
): Promise<RateLimitResult> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const key = `rl:${bucket}:${subject}:${windowStart}`;
  const retryAfterSeconds = Math.ceil((windowStart + windowMs - now) / 1000);
  const current = Number((await kv.get(key)) ?? 0);
  if (current >= rule.limit) return { allowed: false, count: current, retryAfterSeconds };
  await kv.put(key, String(current + 1), {
    expirationTtl: Math.max(MIN_KV_TTL, Math.ceil((windowStart + windowMs - now) / 1000) + 1),
  });
  return { allowed: true, count: current + 1, retryAfterSeconds };
}

/** The client address as Cloudflare reports it; locally wrangler/miniflare pass the header through. */
export function clientIp(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? "127.0.0.1";
}
