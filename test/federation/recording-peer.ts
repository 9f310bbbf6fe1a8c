// A loopback "remote server" for outgoing-federation tests: it serves actor documents with a
// real RSA key and inboxes (personal and shared) that verify every POST's HTTP signature with
// Fedify's verifyRequest — fetching the signer's key from Wren like any peer — and record the
// verified activities. It can be told to answer the next deliveries with an error status.

import type { webcrypto } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { generateCryptoKeyPair, verifyRequest } from "@fedify/fedify";
import type { DocumentLoader } from "@fedify/vocab";
import type { Account } from "../../src/domain/account.ts";
import { remoteAccountRecord, remoteActorInfo } from "../helpers/records.ts";
import type { TestServer } from "../helpers/server.ts";
import type { Json } from "./helpers.ts";

export interface Delivery {
  /** The inbox path it was posted to (`/inbox` or `/users/<name>/inbox`). */
  path: string;
  activity: Json;
  /** The id of the key that signed it, and that key's owner. */
  keyId: string;
  owner: string | null;
}

export interface RecordingPeer {
  url: string;
  /** `127.0.0.1:<port>`: the domain of its accounts. */
  host: string;
  /** Verified deliveries, in order of arrival. */
  deliveries: Delivery[];
  /** Every POST that reached an inbox, verified or not, with the status answered. */
  attempts: { path: string; status: number }[];
  /**
   * While set, every signed delivery is answered with this status and not recorded (the peer
   * is "down"); null: accept again.
   */
  failWith(status: number | null): void;
  actorUri(name: string): string;
  /**
   * Stores a remote account record for `name` on this peer in Wren; with `sharedInbox` false
   * the actor publishes only its personal inbox.
   */
  addAccount(
    server: TestServer,
    name: string,
    options?: { sharedInbox?: boolean },
  ): Promise<Account>;
  close(): Promise<void>;
}

/** A loader that fetches plain JSON over HTTP (loopback included: this is the test's peer). */
const loopbackLoader: DocumentLoader = async (url) => {
  const res = await fetch(url, { headers: { accept: "application/activity+json" } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return { contextUrl: null, documentUrl: res.url, document: await res.json() };
};

async function publicKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey("spki", key)).toString("base64");
  const lines = der.match(/.{1,64}/g) ?? [];
  return `-----BEGIN PUBLIC KEY-----\n${lines.join("\n")}\n-----END PUBLIC KEY-----\n`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startRecordingPeer(): Promise<RecordingPeer> {
  const keys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  const pem = await publicKeyPem(keys.publicKey);
  const deliveries: Delivery[] = [];
  const attempts: { path: string; status: number }[] = [];
  let failure: number | null = null;
  const personalOnly = new Set<string>();
  let base = "";

  const actorDocument = (name: string) => {
    const id = `${base}/users/${name}`;
    return {
      "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
      id,
      type: "Person",
      preferredUsername: name,
      inbox: `${id}/inbox`,
      outbox: `${id}/outbox`,
      followers: `${id}/followers`,
      ...(personalOnly.has(name) ? {} : { endpoints: { sharedInbox: `${base}/inbox` } }),
      publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: pem },
    };
  };

  async function inbox(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = await readBody(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(", "));
    }
    const request = new Request(`${base}${path}`, { method: "POST", headers, body });
    const key = await verifyRequest(request, { documentLoader: loopbackLoader }).catch(() => null);
    let status = 202;
    if (key === null) status = 401;
    else if (failure !== null) status = failure;
    attempts.push({ path, status });
    if (status === 202 && key !== null) {
      deliveries.push({
        path,
        activity: JSON.parse(body.toString("utf8")),
        keyId: key.id?.href ?? "",
        owner: key.ownerId?.href ?? null,
      });
    }
    res.writeHead(status).end();
  }

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://peer").pathname;
    const actor = /^\/users\/([^/]+)$/.exec(path);
    if (req.method === "POST" && (path === "/inbox" || /^\/users\/[^/]+\/inbox$/.test(path))) {
      inbox(req, res, path).catch(() => res.writeHead(500).end());
      return;
    }
    if (req.method === "GET" && actor) {
      res.writeHead(200, { "content-type": "application/activity+json" });
      res.end(JSON.stringify(actorDocument(actor[1] as string)));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  const host = `127.0.0.1:${port}`;

  return {
    url: base,
    host,
    deliveries,
    attempts,
    failWith(status) {
      failure = status;
    },
    actorUri: (name) => `${base}/users/${name}`,
    async addAccount(wren, name, options = {}) {
      const shared = options.sharedInbox ?? true;
      if (!shared) personalOnly.add(name);
      const uri = `${base}/users/${name}`;
      const account = remoteAccountRecord(wren, name, host, {
        uri,
        url: uri,
        avatar: null,
        remote: remoteActorInfo(uri, wren.wren.ctx.clock.now().toISOString(), {
          sharedInbox: shared ? `${base}/inbox` : null,
        }),
      });
      await wren.wren.ctx.storage.accounts.put(account);
      return account;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
