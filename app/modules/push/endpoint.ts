// Which push endpoints Porchlight sends to (ADR 0032). An endpoint comes from the browser, so it is a URL a user
// chose: the server would POST to it whenever a lead arrives. Only the push services browsers really use are
// contacted, over https on the default port, named (never an IP literal), with no credentials in the URL.
// Pure: used when a subscription is saved and again before each send.

/** The browsers' push services: a host listed here, or (for `suffix`) any host under that domain. */
const PUSH_SERVICES: readonly { browser: string; host?: string; suffix?: string }[] = [
  // Chrome, and the Chromium browsers that use Google's service (Opera, Samsung Internet, Brave with it on).
  { browser: "Chrome", host: "fcm.googleapis.com" },
  // Firefox (Mozilla autopush).
  { browser: "Firefox", host: "updates.push.services.mozilla.com" },
  // Safari on macOS, and installed web apps on iPhone and iPad: web.push.apple.com, under Apple's *.push.apple.com.
  { browser: "Safari", suffix: "push.apple.com" },
  // Edge (Windows Push Notification Services), e.g. wns2-par02p.notify.windows.com.
  { browser: "Edge", suffix: "notify.windows.com" },
];

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function listed(host: string, extraHosts: readonly string[]): boolean {
  if (extraHosts.includes(host)) return true;
  return PUSH_SERVICES.some((service) => (service.host ? host === service.host : host.endsWith(`.${service.suffix}`)));
}

/**
 * Why Porchlight will not send to `endpoint`, or null when it will. `extraHosts` are further hosts allowed
 * outside production only (the tests' fake push service); the caller passes none in production.
 */
export function pushEndpointProblem(endpoint: string, extraHosts: readonly string[] = []): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "The subscription's endpoint must be an https address.";
  }
  if (url.protocol !== "https:") return "The subscription's endpoint must be an https address.";
  if (url.username || url.password) return "The subscription's endpoint must not carry a user name or password.";
  if (url.port !== "") return "The subscription's endpoint must use the standard https port.";
  // The URL parser writes every IPv4 form (0x7f.1, 2130706433) as dotted decimal and IPv6 in brackets.
  if (IPV4.test(url.hostname) || url.hostname.startsWith("[")) return "The subscription's endpoint must name a push service, not an IP address.";
  if (!listed(url.hostname, extraHosts))
    return "The subscription's endpoint is not a browser push service Porchlight sends to (Chrome, Edge, Firefox or Safari).";
  return null;
}
