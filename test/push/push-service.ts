// A Web Push service on loopback for the tests, and the subscriber's side of the encryption:
// a P-256 key pair and auth secret such as a browser makes, and the decryption of both content
// codings (RFC 8291 aes128gcm; the older aesgcm draft) and the check of the VAPID signature
// (RFC 8292), written here with node:crypto alone so that they do not share the sender's code.

import assert from "node:assert/strict";
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  type ECDH,
  hkdfSync,
  randomBytes,
  verify,
} from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Subscriber {
  ecdh: ECDH;
  /** The public key (uncompressed point) and auth secret, base64url, as an app sends them. */
  p256dh: string;
  auth: string;
}

export function newSubscriber(): Subscriber {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    ecdh,
    p256dh: ecdh.getPublicKey("base64url"),
    auth: randomBytes(16).toString("base64url"),
  };
}

export interface ReceivedPush {
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export interface PushService {
  /** An endpoint URL on this service; `name` tells subscribers apart. */
  endpoint(name: string): string;
  received: ReceivedPush[];
  /** The status (and headers) to answer for an endpoint name (default 201), until changed. */
  answer(name: string, status: number, headers?: Record<string, string>): void;
  /** Connections opened to the service so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, { status: number; headers: Record<string, string> }>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      const answer = answers.get(path.replace(/^\/push\//, ""));
      res.writeHead(answer?.status ?? 201, answer?.headers ?? {});
      res.end();
    });
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: (name) => `http://127.0.0.1:${port}/push/${name}`,
    received,
    answer: (name, status, headers = {}) => answers.set(name, { status, headers }),
    get connections() {
      return connections;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) =>
  Buffer.from(hkdfSync("sha256", ikm, salt, info, length));

function aesGcmOpen(key: Buffer, nonce: Buffer, sealed: Buffer): Buffer {
  const decipher = createDecipheriv("aes-128-gcm", key, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
}

/** RFC 8291 with RFC 8188's one-record aes128gcm framing. */
function decryptAes128gcm(subscriber: Subscriber, body: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const sealed = body.subarray(21 + idLength);
  const shared = subscriber.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([
    Buffer.from("WebPush: info\0"),
    subscriber.ecdh.getPublicKey(),
    senderKey,
  ]);
  const ikm = hkdf(shared, Buffer.from(subscriber.auth, "base64url"), keyInfo, 32);
  const cek = hkdf(ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16);
  const nonce = hkdf(ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12);
  const padded = aesGcmOpen(cek, nonce, sealed);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  assert.equal(padded[end], 2, "the last record's delimiter");
  return padded.subarray(0, end);
}

/** The header parameter `name` of a `Crypto-Key` or `Encryption` header (`a=1;b=2` lists). */
function param(header: string | undefined, name: string): string {
  for (const part of (header ?? "").split(/[;,]/)) {
    const [key, value] = part.trim().split("=");
    if (key === name && value) return value;
  }
  throw new Error(`no ${name} in "${header}"`);
}

/** draft-ietf-webpush-encryption-04: salt and sender key in headers, 2-byte padding length. */
function decryptAesgcm(subscriber: Subscriber, push: ReceivedPush): Buffer {
  const salt = Buffer.from(param(push.headers.encryption as string, "salt"), "base64url");
  const senderKey = Buffer.from(param(push.headers["crypto-key"] as string, "dh"), "base64url");
  const shared = subscriber.ecdh.computeSecret(senderKey);
  const ikm = hkdf(
    shared,
    Buffer.from(subscriber.auth, "base64url"),
    Buffer.from("Content-Encoding: auth\0"),
    32,
  );
  const length = (key: Buffer) => Buffer.from([0, key.length]);
  const context = Buffer.concat([
    Buffer.from("P-256\0"),
    length(subscriber.ecdh.getPublicKey()),
    subscriber.ecdh.getPublicKey(),
    length(senderKey),
    senderKey,
  ]);
  const cek = hkdf(
    ikm,
    salt,
    Buffer.concat([Buffer.from("Content-Encoding: aesgcm\0"), context]),
    16,
  );
  const nonce = hkdf(
    ikm,
    salt,
    Buffer.concat([Buffer.from("Content-Encoding: nonce\0"), context]),
    12,
  );
  const padded = aesGcmOpen(cek, nonce, push.body);
  return padded.subarray(2 + padded.readUInt16BE(0));
}

/** The message's text, decrypted with the coding its Content-Encoding names. */
export function decrypt(subscriber: Subscriber, push: ReceivedPush): string {
  const coding = push.headers["content-encoding"];
  const plain =
    coding === "aes128gcm"
      ? decryptAes128gcm(subscriber, push.body)
      : coding === "aesgcm"
        ? decryptAesgcm(subscriber, push)
        : assert.fail(`unknown Content-Encoding ${coding}`);
  return plain.toString("utf8");
}

/**
 * Checks the VAPID signature against `publicKey` (the instance's, base64url): the JWT's ES256
 * signature, its audience (the endpoint's origin) and expiry, and the key the request names
 * (`vapid t=…, k=…` for aes128gcm; `WebPush …` with `p256ecdsa=` in Crypto-Key for aesgcm).
 * Returns the JWT's claims.
 */
export function verifyVapid(push: ReceivedPush, publicKey: string, endpoint: string) {
  const authorization = push.headers.authorization ?? "";
  let jwt: string;
  let named: string;
  if (push.headers["content-encoding"] === "aes128gcm") {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
    assert.ok(match, `Authorization: ${authorization}`);
    [, jwt = "", named = ""] = match;
  } else {
    const match = /^WebPush (\S+)$/.exec(authorization);
    assert.ok(match, `Authorization: ${authorization}`);
    jwt = match[1] ?? "";
    named = param(push.headers["crypto-key"] as string, "p256ecdsa");
  }
  assert.equal(named, publicKey, "the request names the instance's key");
  const [header = "", payload = "", signature = ""] = jwt.split(".");
  const raw = Buffer.from(publicKey, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: raw.subarray(1, 33).toString("base64url"),
      y: raw.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const valid = verify(
    "sha256",
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  assert.ok(valid, "the VAPID JWT is signed by the instance's key");
  assert.equal(JSON.parse(Buffer.from(header, "base64url").toString()).alg, "ES256");
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as {
    aud: string;
    exp: number;
    sub: string;
  };
  assert.equal(claims.aud, new URL(endpoint).origin);
  const now = Date.now() / 1000;
  assert.ok(claims.exp > now && claims.exp <= now + 24 * 3600, "expires within a day (RFC 8292)");
  assert.match(claims.sub, /^(mailto:|https:)/);
  return claims;
}
