// `node scripts/vapid-keys.mjs`: a new VAPID key pair for Web Push, in the form Porchlight's
// configuration takes. Set them with `wrangler secret put VAPID_PRIVATE_KEY` and a var VAPID_PUBLIC_KEY, with
// VAPID_SUBJECT (a mailto: or https: address), then turn PUSH_NOTIFICATIONS on. A new pair ends every device's
// subscription: browsers subscribe to one public key.
const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
const publicKey = Buffer.from(await crypto.subtle.exportKey("raw", pair.publicKey)).toString("base64url");
const { d } = await crypto.subtle.exportKey("jwk", pair.privateKey);
console.log(`VAPID_PUBLIC_KEY=${publicKey}`);
console.log(`VAPID_PRIVATE_KEY=${d}`);
