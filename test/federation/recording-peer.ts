// A loopback "remote server" for outgoing-federation tests: it serves actor documents with a
// real RSA key and inboxes (personal and shared) that verify every POST's HTTP signature with
// Fedify's verifyRequest — fetching the signer's key from Wren like any peer — and record the
// verified activities. It can be told to answer the next deliveries with an error status, or to
// hold them unanswered (a slow peer) so the sender is caught mid-delivery.

import type { webcrypto } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { generateCryptoKeyPair, verifyRequest } from "@fedify/fedify";
import type { DocumentLoader } from "@fedify/vocab";
import type { Account } from "../../src/domain/account.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { makeAccount } from "../../src/storage/contract/fixtures.ts";
import { remoteActorInfo } from "../helpers/records.ts";
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
  /**
   * From now on, signed deliveries wait unanswered (and unrecorded) until `release`; they are
   * listed in `held` as they arrive.
   */
  hold(): void;
  /** Deliveries waiting under `hold`, in order of arrival. */
  held: HeldDelivery[];
  /**
   * Stops holding and answers the waiting deliveries as usual; one whose sender hung up
   * meanwhile is only listed in `attempts`, with status 0.
   */
  release(): void;
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
  /** As addAccount, through any service context (e.g. one on a database other processes use). */
  storeAccount(
    ctx: ServiceContext,
    name: string,
    options?: { sharedInbox?: boolean },
  ): Promise<Account>;
  close(): Promise<void>;
}

export interface HeldDelivery {
  path: string;
  /** The sender's TCP port: which process sent it. */
  remotePort: number;
  /** The sender closed the connection before it was answered. */
  hungUp: boolean;
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
  let holding = false;
  const held: HeldDelivery[] = [];
  let released = Promise.withResolvers<void>();
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
    if (key !== null && holding) {
      const entry: HeldDelivery = { path, remotePort: req.socket.remotePort ?? 0, hungUp: false };
      res.once("close", () => {
        if (!res.writableEnded) entry.hungUp = true;
      });
      held.push(entry);
      await released.promise;
      held.splice(held.indexOf(entry), 1);
      if (entry.hungUp) {
        attempts.push({ path, status: 0 });
        return;
      }
    }
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

  async function storeAccount(
    ctx: ServiceContext,
    name: string,
    options: { sharedInbox?: boolean } = {},
  ): Promise<Account> {
    const shared = options.sharedInbox ?? true;
    if (!shared) personalOnly.add(name);
    const uri = `${base}/users/${name}`;
    const now = ctx.clock.now().toISOString();
    const account = makeAccount({
      id: ctx.ids.next(),
      username: name,
      domain: host,
      displayName: "",
      discoverable: false,
      indexable: false,
      fields: [],
      header: null,
      createdAt: now,
      updatedAt: now,
      uri,
      url: uri,
      avatar: null,
      remote: remoteActorInfo(uri, now, { sharedInbox: shared ? `${base}/inbox` : null }),
    });
    await ctx.storage.accounts.put(account);
    return account;
  }

  return {
    url: base,
    host,
    deliveries,
    attempts,
    failWith(status) {
      failure = status;
    },
    held,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      released.resolve();
      released = Promise.withResolvers<void>();
    },
    actorUri: (name) => `${base}/users/${name}`,
    addAccount: (wren, name, options) => storeAccount(wren.wren.ctx, name, options),
    storeAccount,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
