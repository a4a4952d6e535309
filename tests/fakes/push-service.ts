// A fake Web Push service at the boundary: a browser's subscription (a P-256 key pair and an auth secret,
// as a browser makes them) and a push service that checks what Porchlight sends it the way a real one does: the
// VAPID JWT's ES256 signature, audience and expiry (RFC 8292), then decrypts the aes128gcm body with the
// subscription's private key (RFC 8291). Wired in with vi.spyOn(globalThis, "fetch").

const enc = new TextEncoder();
const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromB64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4)), (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

async function hkdf(salt: BufferSource, ikm: BufferSource, info: BufferSource, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

export interface FakeDevice {
  endpoint: string;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  privateKey: CryptoKey;
  publicRaw: Uint8Array<ArrayBuffer>;
  auth: Uint8Array<ArrayBuffer>;
}

/** A browser's push subscription at the fake service. */
export async function fakeDevice(name = crypto.randomUUID()): Promise<FakeDevice> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const auth = crypto.getRandomValues(new Uint8Array(16));
  const endpoint = `https://push.fake.test/send/${name}`;
  return {
    endpoint,
    subscription: { endpoint, keys: { p256dh: b64url(publicRaw), auth: b64url(auth) } },
    privateKey: pair.privateKey,
    publicRaw,
    auth,
  };
}

interface Delivered {
  endpoint: string;
  message: Record<string, unknown>;
  ttl: string | null;
  urgency: string | null;
  jwt: { aud: string; exp: number; sub: string };
}

/** Decrypts an aes128gcm body (RFC 8188 framing, RFC 8291 keys) the way the browser would. */
async function decrypt(device: FakeDevice, body: Uint8Array): Promise<string> {
  const salt = body.slice(0, 16);
  const idlen = body[20]!;
  const serverPublic = body.slice(21, 21 + idlen);
  const ciphertext = body.slice(21 + idlen);
  const serverKey = await crypto.subtle.importKey("raw", serverPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const shared = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: serverKey }, device.privateKey, 256));
  const ikm = await hkdf(device.auth, shared, concat(enc.encode("WebPush: info\0"), device.publicRaw, serverPublic), 32);
  const cek = await hkdf(salt, ikm, enc.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, enc.encode("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  // The last record ends with the delimiter 0x02, then any padding zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error("The record has no final delimiter.");
  return new TextDecoder().decode(padded.slice(0, end));
}

/** Checks `vapid t=<jwt>, k=<key>`: an ES256 JWT signed by that key, for this origin, not expired. */
async function checkVapid(header: string | null, endpoint: string, now: number) {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? "");
  if (!match) throw new Error(`Not a VAPID Authorization header: ${header}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [head, claims, signature] = jwt.split(".") as [string, string, string];
  const raw = fromB64url(k);
  const key = await crypto.subtle.importKey(
    "jwk",
    { kty: "EC", crv: "P-256", x: b64url(raw.slice(1, 33)), y: b64url(raw.slice(33, 65)) },
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  const valid = await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, fromB64url(signature), enc.encode(`${head}.${claims}`));
  if (!valid) throw new Error("The VAPID signature does not verify.");
  const payload = JSON.parse(new TextDecoder().decode(fromB64url(claims))) as Delivered["jwt"];
  if (payload.aud !== new URL(endpoint).origin) throw new Error(`The JWT is for ${payload.aud}, not ${new URL(endpoint).origin}.`);
  if (payload.exp * 1000 <= now) throw new Error("The JWT has expired.");
  return { payload, k };
}

/**
 * The fake push service: answers each device's endpoint (201, or the status `statusFor` gives, e.g. 410 for a
 * subscription the browser dropped) and records what it decrypted. Other URLs go to `passThrough`.
 */
export function fakePushService(
  devices: FakeDevice[],
  options: { publicKey: string; statusFor?: (endpoint: string) => number; passThrough: typeof fetch },
) {
  const delivered: Delivered[] = [];
  const handler = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const device = devices.find((d) => d.endpoint === request.url);
    if (!device) return options.passThrough(input, init);
    const status = options.statusFor?.(request.url) ?? 201;
    if (status !== 201) return new Response(null, { status });
    const { payload, k } = await checkVapid(request.headers.get("authorization"), request.url, Date.now());
    if (k !== options.publicKey) throw new Error("Signed with another key than the deployment's.");
    if (request.headers.get("content-encoding") !== "aes128gcm") throw new Error("Not aes128gcm.");
    const text = await decrypt(device, new Uint8Array(await request.arrayBuffer()));
    delivered.push({
      endpoint: request.url,
      message: JSON.parse(text) as Record<string, unknown>,
      ttl: request.headers.get("ttl"),
      urgency: request.headers.get("urgency"),
      jwt: payload,
    });
    return new Response(null, { status: 201 });
  };
  return { delivered, handler };
}

/** A VAPID key pair in the configuration's form (as scripts/vapid-keys.mjs makes it). */
export async function vapidKeys() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const publicKey = b64url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  const { d } = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  return { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: d!, VAPID_SUBJECT: "mailto:ops@porchlight.test" };
}
