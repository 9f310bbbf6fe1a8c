// A draft-cavage HTTP signature (the `Signature` header Mastodon and Fedify send) checked on the
// main thread with a key already imported, in about a tenth of the CPU of Fedify's
// `verifyRequest` (0.08 against 0.6 ms per inbox POST, docs/PERFORMANCE.md, "Inbox, round six"):
// Fedify clones the request and reads its body again, hashes it and verifies the signature through
// WebCrypto jobs, parses the Date with the Temporal polyfill and opens tracing spans and metrics
// around each step. Here the body already read is hashed once (node:crypto, synchronous) and the
// signature verified with node:crypto's `verify` on the key's KeyObject.
//
// A fast path only, never the last word: it answers true when the signature certainly verifies
// by Fedify's rules (the same headers required, the same time window, the same signed string),
// and false for anything else, which the caller then hands to Fedify's `verifyRequest` as before
// (its failures, RFC 9421 signatures, keys given by reference, `created`/`expires`, other digest
// algorithms). So it can only make a signature Fedify accepts cheaper, never accept one Fedify
// would refuse (draft-signature.test.ts checks each refusal against Fedify's verdict).

import { createHash, KeyObject, verify, type webcrypto } from "node:crypto";
import { CryptographicKey, type Multikey } from "@fedify/vocab";

/** Fedify's window for the `Date` header when no `timeWindow` is given: an hour either way. */
const DATE_WINDOW_MS = 60 * 60 * 1000;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** `name="value"` or `name=digits`, as Fedify parses each comma-separated field. */
const FIELD = /^\s*([A-Za-z]+)=(?:"([^"]*)"|(\d+))\s*$/;
/** The `algorithm` values that mean RSASSA-PKCS1-v1_5 with SHA-256 for an RSA key. */
const RSA_SHA256 = new Set(["rsa-sha256", "hs2019"]);
/** A header name as signers write it (lower case); anything else, pseudo-headers too, is Fedify's. */
const HEADER_NAME = /^[a-z0-9!#$%&'*+\-.^_`|~]+$/;

/** Base64 in its padded form (whole groups of four); any other spelling is left to Fedify. */
const isPaddedBase64 = (text: string) => text.length % 4 === 0 && BASE64.test(text);

/** The Signature header's fields; a field written twice keeps its last value, as in Fedify. */
function signatureFields(header: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const pair of header.split(",")) {
    const match = FIELD.exec(pair);
    if (match) fields.set(match[1] as string, (match[2] ?? match[3]) as string);
  }
  return fields;
}

const keyObjects = new WeakMap<webcrypto.CryptoKey, KeyObject>();

/** The key as node:crypto takes it, when it is an RSA key for SHA-256 signatures. */
function rsaSha256KeyObject(key: CryptographicKey | Multikey | undefined): KeyObject | undefined {
  if (!(key instanceof CryptographicKey) || key.publicKey == null) return undefined;
  const cryptoKey = key.publicKey;
  const algorithm = cryptoKey.algorithm as webcrypto.RsaHashedKeyAlgorithm;
  if (algorithm.name !== "RSASSA-PKCS1-v1_5" || algorithm.hash?.name !== "SHA-256") {
    return undefined;
  }
  let keyObject = keyObjects.get(cryptoKey);
  if (!keyObject) {
    keyObject = KeyObject.from(cryptoKey);
    keyObjects.set(cryptoKey, keyObject);
  }
  return keyObject;
}

/** Whether the `Digest` header is exactly one SHA-256 digest, and it is the body's. */
function digestMatches(header: string | null, body: Uint8Array): boolean {
  if (header === null || !header.startsWith("SHA-256=")) return false;
  const given = header.slice("SHA-256=".length);
  if (!BASE64.test(given)) return false;
  return createHash("sha256").update(body).digest("base64") === given;
}

/** Whether `date` (the Date header) is within Fedify's default window around `now`. */
function dateInWindow(date: string | null, now: number): boolean {
  if (date === null) return false;
  const at = new Date(date).getTime();
  return Number.isFinite(at) && Math.abs(at - now) <= DATE_WINDOW_MS;
}

/**
 * Whether the POST `request`, whose body as received is `body`, carries a draft-cavage signature
 * that verifies with one of `keys` (by key id), by the rules of Fedify's `verifyRequest` with no
 * `timeWindow`. False is not a refusal: it means "ask Fedify".
 */
export function verifiesWithKeptKey(
  request: Request,
  body: Uint8Array,
  keys: ReadonlyMap<string, CryptographicKey | Multikey>,
  now = Date.now(),
): boolean {
  const headers = request.headers;
  const header = headers.get("signature");
  if (header === null || headers.has("signature-input") || request.method !== "POST") return false;
  const fields = signatureFields(header);
  const keyId = fields.get("keyId");
  const signed = fields.get("headers");
  const signature = fields.get("signature");
  const algorithm = fields.get("algorithm");
  if (keyId === undefined || signed === undefined || signature === undefined) return false;
  // Fedify checks `created` and `expires` with windows of their own: left to it.
  if (fields.has("created") || fields.has("expires")) return false;
  if (algorithm !== undefined && !RSA_SHA256.has(algorithm.toLowerCase())) return false;
  if (!isPaddedBase64(signature) || !URL.canParse(keyId)) return false;
  const key = rsaSha256KeyObject(keys.get(new URL(keyId).href));
  if (key === undefined) return false;
  if (!digestMatches(headers.get("digest"), body)) return false;
  if (!dateInWindow(headers.get("date"), now)) return false;
  const names = signed.split(/\s+/g);
  if (!names.includes("(request-target)") || !names.includes("date")) return false;
  if (!names.includes("digest")) return false;
  // The signed string, as Fedify builds it; a named header the request lacks is not guessed.
  const lines: string[] = [];
  for (const name of names) {
    if (name === "(request-target)") {
      lines.push(`${name}: post ${new URL(request.url).pathname}`);
    } else if (name === "host") {
      lines.push(`${name}: ${headers.get("host") ?? new URL(request.url).host}`);
    } else {
      if (!HEADER_NAME.test(name)) return false;
      const value = headers.get(name);
      if (value === null) return false;
      lines.push(`${name}: ${value}`);
    }
  }
  return verify("sha256", Buffer.from(lines.join("\n")), key, Buffer.from(signature, "base64"));
}
