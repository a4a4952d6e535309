import { isoCBOR } from "@simplewebauthn/server/helpers";
import { base64url, fromBase64url } from "~/lib/crypto";

// A software passkey for worker tests: an ES256 key pair made with WebCrypto, answering the server's WebAuthn options
// the way a platform authenticator does ('none' attestation, CBOR authenticator data, a DER-encoded ECDSA signature),
// so registration and sign-in run through the real routes and the real @simplewebauthn/server checks.

const encoder = new TextEncoder();
const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const uint32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

/** WebCrypto's raw r||s ECDSA signature as the DER SEQUENCE WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

interface Options {
  challenge: string;
  rp?: { id?: string };
  rpId?: string;
}

export class SoftPasskey {
  counter = 0;
  readonly id = crypto.getRandomValues(new Uint8Array(16));

  private constructor(private readonly keys: CryptoKeyPair) {}

  static async create() {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    return new SoftPasskey(keys);
  }

  get credentialId() {
    return base64url(this.id);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string) {
    return encoder.encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to navigator.credentials.create() for these options. */
  async register(options: Options, origin = "http://localhost") {
    const rpId = options.rp?.id ?? "localhost";
    const jwk = await crypto.subtle.exportKey("jwk", this.keys.publicKey);
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromBase64url(jwk.x!)],
        [-3, fromBase64url(jwk.y!)],
      ]),
    );
    const attested = concat(new Uint8Array(16), new Uint8Array([0, this.id.length]), this.id, cose);
    // Flags: user present, user verified, attested credential data.
    const authData = concat(await sha256(encoder.encode(rpId)), new Uint8Array([0x45]), uint32(this.counter), attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]) as never,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: base64url(this.clientData("webauthn.create", options.challenge, origin)),
        attestationObject: base64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** The answer to navigator.credentials.get() for these options; each use moves the signature counter on. */
  async assert(options: Options, origin = "http://localhost") {
    this.counter += 1;
    const authData = concat(await sha256(encoder.encode(options.rpId ?? "localhost")), new Uint8Array([0x05]), uint32(this.counter));
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, origin);
    const signed = concat(authData, await sha256(clientDataJSON));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed));
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: base64url(clientDataJSON),
        authenticatorData: base64url(authData),
        signature: base64url(derSignature(raw)),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
