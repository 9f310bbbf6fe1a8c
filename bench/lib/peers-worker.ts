// One process of simulated remote servers for the federation scenarios: `servers` node:http
// servers, each on its own loopback port (a distinct origin, as distinct as 127.0.0.1 allows),
// each hosting `actorsPerServer` actors with a real RSA key and a shared inbox. Every POST to an
// inbox is checked with Fedify's verifyRequest, as a real peer would; the signer's key is fetched
// once per process and cached (a peer that follows the sender has its key already). Arrivals are
// counted per activity id, and the parent hears (IPC) when every server here has one.
//
// The actors share this process's key pair: generating a thousand RSA keys would take minutes
// and changes nothing Wren does (it fetches and caches each actor's key by its own id).

import type { webcrypto } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJwk, generateCryptoKeyPair, type KeyCache, verifyRequest } from "@fedify/fedify";
import type { CryptographicKey, DocumentLoader } from "@fedify/vocab";
import { actorName } from "./peers.ts";

export interface PeersSpec {
  servers: number;
  actorsPerServer: number;
}

/** Messages to the parent. */
export type PeersMessage =
  | { type: "ready"; ports: number[]; privateKey: webcrypto.JsonWebKey; publicKeyPem: string }
  /** Every server of this process has the activity `id` (epoch ms of the first and last). */
  | { type: "complete"; id: string; first: number; at: number }
  | { type: "stats"; verified: number; refused: number };

/** Messages from the parent. */
export type PeersRequest = { type: "stats" };

async function publicKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey("spki", key)).toString("base64");
  return `-----BEGIN PUBLIC KEY-----\n${der.match(/.{1,64}/g)?.join("\n")}\n-----END PUBLIC KEY-----\n`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(message: PeersMessage): void {
  process.send?.(message);
}

const spec = JSON.parse(process.argv[2] ?? "{}") as PeersSpec;
const keys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
const pem = await publicKeyPem(keys.publicKey);

// The sender's key document, fetched once (concurrent first deliveries share the fetch).
const documents = new Map<string, ReturnType<DocumentLoader>>();
const loader: DocumentLoader = (url) => {
  let doc = documents.get(url);
  if (!doc) {
    doc = fetch(url, { headers: { accept: "application/activity+json" } }).then(async (res) => {
      if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
      return { contextUrl: null, documentUrl: res.url, document: await res.json() };
    });
    doc.catch(() => documents.delete(url));
    documents.set(url, doc);
  }
  return doc;
};
const cachedKeys = new Map<string, CryptographicKey | null>();
const keyCache: KeyCache = {
  async get(keyId) {
    return cachedKeys.get(keyId.href) as CryptographicKey | null | undefined;
  },
  async set(keyId, key) {
    cachedKeys.set(keyId.href, key as CryptographicKey | null);
  },
};

/** Activity id → the servers (ports) of this process that have it, and when the first did. */
const arrivals = new Map<string, { ports: Set<number>; first: number }>();
let verified = 0;
let refused = 0;

function actorDocument(base: string, name: string) {
  const id = `${base}/users/${name}`;
  return {
    "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
    id,
    type: "Person",
    preferredUsername: name,
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    followers: `${id}/followers`,
    endpoints: { sharedInbox: `${base}/inbox` },
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: pem },
  };
}

async function inbox(req: IncomingMessage, res: ServerResponse, base: string, port: number) {
  const body = await readBody(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(", "));
  }
  const request = new Request(`${base}${req.url}`, { method: "POST", headers, body });
  const key = await verifyRequest(request, { documentLoader: loader, keyCache }).catch(() => null);
  if (key === null) {
    refused++;
    res.writeHead(401).end();
    return;
  }
  verified++;
  res.writeHead(202).end();
  const id = (JSON.parse(body.toString("utf8")) as { id?: unknown }).id;
  if (typeof id !== "string") return;
  const entry = arrivals.get(id) ?? { ports: new Set<number>(), first: Date.now() };
  arrivals.set(id, entry);
  const before = entry.ports.size;
  entry.ports.add(port);
  if (entry.ports.size === spec.servers && before < spec.servers) {
    send({ type: "complete", id, first: entry.first, at: Date.now() });
  }
}

async function listen(): Promise<number> {
  let base = "";
  let port = 0;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (req.method === "POST" && (path === "/inbox" || /^\/users\/[^/]+\/inbox$/.test(path))) {
      inbox(req, res, base, port).catch(() => res.writeHead(400).end());
      return;
    }
    const actor = /^\/users\/u(\d+)$/.exec(path);
    if (req.method === "GET" && actor && Number(actor[1]) < spec.actorsPerServer) {
      res.writeHead(200, { "content-type": "application/activity+json" });
      res.end(JSON.stringify(actorDocument(base, actorName(Number(actor[1])))));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return port;
}

const ports: number[] = [];
for (let i = 0; i < spec.servers; i++) ports.push(await listen());
process.on("message", (message: PeersRequest) => {
  if (message.type === "stats") send({ type: "stats", verified, refused });
});
// The parent going away ends this process (the IPC channel closes with it).
process.on("disconnect", () => process.exit(0));
send({ type: "ready", ports, privateKey: await exportJwk(keys.privateKey), publicKeyPem: pem });
