// Load process of the inbox scenario: builds `count` Create(Note) activities from the remote
// actors (round robin), signs them all with Fedify's signRequest before the clock starts (the
// senders' cost, not Wren's), measures the reference — Fedify's verifyRequest over the same
// requests in a loop, keys cached as Wren caches them — and then POSTs them to Wren's shared
// inbox from `concurrency` keep-alive connections. Prints its figures as one JSON line.

import type { webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { importJwk, type KeyCache, signRequest, verifyRequest } from "@fedify/fedify";
import type { CryptographicKey, DocumentLoader } from "@fedify/vocab";

export interface InboxLoadSpec {
  inboxUrl: string;
  /** Distinguishes the ids of this batch from earlier ones. */
  tag: string;
  count: number;
  concurrency: number;
  senders: { uri: string; process: number }[];
  /** Per peers process: its actors' private key (JWK) and public key (PEM). */
  keys: { privateKey: webcrypto.JsonWebKey; publicKeyPem: string }[];
  /** Requests verified in the reference loop (0: skip it). */
  verifySamples: number;
}

export interface InboxLoadResult {
  /** Epoch ms of the first request and of the last response. */
  startedAt: number;
  finishedAt: number;
  /** 2xx answers. */
  accepted: number;
  refused: Record<string, number>;
  signedPerSecond: number;
  /** Reference: verifyRequest calls per second over the same requests (0 when skipped). */
  verifiedPerSecond: number;
}

interface Signed {
  headers: Record<string, string>;
  body: string;
}

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

function createActivity(actor: string, tag: string, n: number): string {
  const noteId = `${actor}/statuses/${tag}-${n}`;
  const published = new Date().toISOString();
  return JSON.stringify({
    "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
    id: `${noteId}/activity`,
    type: "Create",
    actor,
    published,
    to: [PUBLIC],
    cc: [`${actor}/followers`],
    object: {
      id: noteId,
      type: "Note",
      attributedTo: actor,
      url: noteId,
      published,
      content: `<p>Inbox bench ${tag} number ${n}: a federated post of ordinary length, with a few words.</p>`,
      to: [PUBLIC],
      cc: [`${actor}/followers`],
    },
  });
}

async function signOne(
  spec: InboxLoadSpec,
  keys: webcrypto.CryptoKey[],
  n: number,
): Promise<Signed> {
  const sender = spec.senders[n % spec.senders.length] as InboxLoadSpec["senders"][number];
  const body = createActivity(sender.uri, spec.tag, n);
  const request = await signRequest(
    new Request(spec.inboxUrl, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body,
    }),
    keys[sender.process] as webcrypto.CryptoKey,
    new URL(`${sender.uri}#main-key`),
  );
  return { headers: Object.fromEntries(request.headers), body };
}

/** Signs every request up front, a few at a time (WebCrypto signs off the main thread). */
async function sign(spec: InboxLoadSpec): Promise<{ signed: Signed[]; seconds: number }> {
  const keys = await Promise.all(spec.keys.map((k) => importJwk(k.privateKey, "private")));
  const signed: Signed[] = [];
  const started = performance.now();
  for (let n = 0; n < spec.count; n += 8) {
    const chunk = Array.from({ length: Math.min(8, spec.count - n) }, (_, i) => n + i);
    signed.push(...(await Promise.all(chunk.map((i) => signOne(spec, keys, i)))));
  }
  return { signed, seconds: (performance.now() - started) / 1000 };
}

/** verifyRequest over the signed requests, key documents served from memory and cached. */
async function verifyRate(spec: InboxLoadSpec, signed: readonly Signed[]): Promise<number> {
  const samples = signed.slice(0, spec.verifySamples);
  if (samples.length === 0) return 0;
  const byUri = new Map(spec.senders.map((s) => [s.uri, s]));
  const loader: DocumentLoader = async (url) => {
    const id = url.replace(/#.*$/, "");
    const sender = byUri.get(id);
    if (!sender) throw new Error(`unknown actor ${url}`);
    const document = {
      "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
      id,
      type: "Person",
      inbox: `${id}/inbox`,
      publicKey: {
        id: `${id}#main-key`,
        owner: id,
        publicKeyPem: spec.keys[sender.process]?.publicKeyPem,
      },
    };
    return { contextUrl: null, documentUrl: id, document };
  };
  const cached = new Map<string, CryptographicKey | null>();
  const keyCache: KeyCache = {
    get: async (keyId) => cached.get(keyId.href) as CryptographicKey | null | undefined,
    set: async (keyId, key) => void cached.set(keyId.href, key as CryptographicKey | null),
  };
  const check = async (s: Signed) => {
    const request = new Request(spec.inboxUrl, {
      method: "POST",
      headers: s.headers,
      body: s.body,
    });
    const key = await verifyRequest(request, { documentLoader: loader, keyCache });
    if (key === null) throw new Error("reference verification failed");
  };
  // Warm the key cache first: Wren, too, has the keys cached when measured.
  for (const s of samples.slice(0, spec.senders.length)) await check(s);
  const started = performance.now();
  for (const s of samples) await check(s);
  return samples.length / ((performance.now() - started) / 1000);
}

function post(url: URL, agent: Agent, s: Signed): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        agent,
        headers: { ...s.headers, "content-length": Buffer.byteLength(s.body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    req.end(s.body);
  });
}

async function deliver(spec: InboxLoadSpec, signed: readonly Signed[]) {
  const url = new URL(spec.inboxUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const codes = new Map<number, number>();
  let next = 0;
  const startedAt = Date.now();
  await Promise.all(
    Array.from({ length: spec.concurrency }, async () => {
      while (next < signed.length) {
        const code = await post(url, agent, signed[next++] as Signed);
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
    }),
  );
  const finishedAt = Date.now();
  agent.destroy();
  let accepted = 0;
  const refused: Record<string, number> = {};
  for (const [code, n] of codes) {
    if (code >= 200 && code < 300) accepted += n;
    else refused[String(code)] = n;
  }
  return { startedAt, finishedAt, accepted, refused };
}

const spec = JSON.parse(readFileSync(process.argv[2] as string, "utf8")) as InboxLoadSpec;
const { signed, seconds } = await sign(spec);
const verifiedPerSecond = await verifyRate(spec, signed);
const delivered = await deliver(spec, signed);
const result: InboxLoadResult = {
  ...delivered,
  signedPerSecond: spec.count / seconds,
  verifiedPerSecond,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
