// A draft-cavage HTTP signature (draft-cavage-http-signatures-12, `rsa-sha256`) for a POST:
// what Mastodon requires on every delivery — `(request-target)`, `host`, `date` and `digest`
// signed, with the body's SHA-256 in `Digest` — the same signature Fedify's signRequest makes
// (which signs every header the request has; the content type is signed here too), without
// building Fetch API Request objects. The RSA signature runs on libuv's thread pool.

import { createHash, type KeyObject, sign } from "node:crypto";

const SIGNED = ["(request-target)", "host", "date", "digest", "content-type"] as const;

/**
 * The digest of each body signed: a body posted to many inboxes (one fan-out's, the same bytes,
 * deliver-message.ts) is hashed once. Bodies are never changed once handed here.
 */
const digests = new WeakMap<Uint8Array, string>();
function digestOf(body: Uint8Array): string {
  let digest = digests.get(body);
  if (digest === undefined) {
    digest = `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
    digests.set(body, digest);
  }
  return digest;
}

function rsaSha256(data: Buffer, key: KeyObject): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    sign("sha256", data, key, (error, signature) => (error ? reject(error) : resolve(signature))),
  );
}

/**
 * `headers` (lowercase names, with `content-type`) plus `host`, `date`, `digest` and
 * `signature`. The request target is the path without the query, as Mastodon and Fedify verify it.
 */
export async function cavageSignedHeaders(
  url: URL,
  body: Uint8Array,
  key: { keyId: URL; keyObject: KeyObject },
  headers: Readonly<Record<string, string>>,
  now: Date = new Date(),
): Promise<Record<string, string>> {
  const signed: Record<string, string> = {
    ...headers,
    host: url.host,
    date: now.toUTCString(),
    digest: digestOf(body),
  };
  const text = SIGNED.map((name) =>
    name === "(request-target)"
      ? `(request-target): post ${url.pathname}`
      : `${name}: ${(signed[name] ?? "").trim()}`,
  ).join("\n");
  const signature = await rsaSha256(Buffer.from(text), key.keyObject);
  signed.signature =
    `keyId="${key.keyId.href}",algorithm="rsa-sha256",headers="${SIGNED.join(" ")}",` +
    `signature="${signature.toString("base64")}"`;
  return signed;
}
