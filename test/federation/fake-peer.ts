// A loopback "remote server" for inbox tests: a real HTTP server (node:http) that publishes
// actor documents with real RSA keys, serves whatever objects a test puts on it, records what
// is delivered to its inboxes, and sends activities signed the way Mastodon does (Fedify's
// signRequest, draft-cavage with Digest). Several peers give several origins.

import type { webcrypto } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { generateCryptoKeyPair, signRequest } from "@fedify/fedify";
import { Application, CryptographicKey, Endpoints, Person } from "@fedify/vocab";

type CryptoKeyPair = webcrypto.CryptoKeyPair;
type CryptoKey = webcrypto.CryptoKey;

// biome-ignore lint/suspicious/noExplicitAny: activities are written as plain JSON by the tests.
export type Json = any;

export const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";
export const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

export interface FakeActor {
  username: string;
  /** The actor id (also its profile URL). */
  id: string;
  keyId: string;
  inbox: string;
  followers: string;
  keys: CryptoKeyPair;
  type: "Person" | "Application";
  /** Other ids of the same person (`alsoKnownAs`), published with the document. */
  alsoKnownAs: string[];
  /** Where the account moved (`movedTo`), published with the document. */
  movedTo?: string;
  /** The featuredTags collection the document names (its content is the test's to put). */
  featuredTags?: string;
}

export interface Delivery {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Json;
}

export interface SendOptions {
  /** Sign with this actor's key instead of the activity's actor's (signer ≠ actor). */
  signer?: FakeActor;
  /** Sign with this key while claiming `signer`'s key id (a forged signature). */
  privateKey?: CryptoKey;
  /** Claim this key id in the signature (a key the receiver has not cached yet). */
  keyId?: string;
  /** Sign with RFC 9421 HTTP Message Signatures instead of draft-cavage. */
  rfc9421?: boolean;
  /** Send without any signature. */
  unsigned?: boolean;
  /** The raw body (malformed JSON); the activity argument is then ignored. */
  rawBody?: string;
  /** Send this body instead of the one signed (a body changed in transit). */
  bodySent?: string;
  /** Send the body as a stream: chunked, without a Content-Length. */
  chunked?: boolean;
}

export interface FakePeer {
  /** The origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The host with its port (a remote account's `domain` on the Wren side). */
  host: string;
  /** Creates an actor with a fresh key pair and publishes its document. */
  actor(
    username: string,
    options?: {
      alsoKnownAs?: string[];
      movedTo?: string;
      /** An Application at `/actor`, like Mastodon's instance actor (which sends reports). */
      instanceActor?: boolean;
      /** Name a featuredTags collection at `<id>/collections/tags` in the document. */
      featuredTags?: boolean;
    },
  ): Promise<FakeActor>;
  /** Publishes a JSON document (a Note…) at a path of this peer; null: answer 410 Gone. */
  put(path: string, document: Json | null): string;
  /** The actor's document answers 410 Gone from now on (its account was deleted). */
  gone(actor: FakeActor): void;
  /** A fresh id on this peer (`${url}/objects/<n>`). */
  newId(kind?: string): string;
  /** POSTs an activity to an inbox URL, signed as its actor unless told otherwise. */
  send(inbox: string, activity: Json, options?: SendOptions): Promise<Response>;
  /** What was delivered to this peer's inboxes. */
  deliveries: Delivery[];
  /** The GETs this peer answered, and whether each carried an HTTP signature. */
  fetches: { path: string; signed: boolean }[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakePeer(): Promise<FakePeer> {
  const documents = new Map<string, Json | null>();
  const actors = new Map<string, FakeActor>();
  const retired = new Map<string, FakeActor>();
  const deliveries: Delivery[] = [];
  const fetches: { path: string; signed: boolean }[] = [];
  let counter = 0;

  async function actorDocument(actor: FakeActor): Promise<Json> {
    const Type = actor.type === "Application" ? Application : Person;
    const person = new Type({
      id: new URL(actor.id),
      preferredUsername: actor.username,
      name: actor.username,
      url: new URL(actor.id),
      inbox: new URL(actor.inbox),
      outbox: new URL(`${actor.id}/outbox`),
      followers: new URL(actor.followers),
      following: new URL(`${actor.id}/following`),
      endpoints: new Endpoints({ sharedInbox: new URL(`${peer.url}/inbox`) }),
      manuallyApprovesFollowers: false,
      aliases: actor.alsoKnownAs.map((id) => new URL(id)),
      ...(actor.movedTo ? { successor: new URL(actor.movedTo) } : {}),
      ...(actor.featuredTags ? { featuredTags: new URL(actor.featuredTags) } : {}),
      publicKey: new CryptographicKey({
        id: new URL(actor.keyId),
        owner: new URL(actor.id),
        publicKey: actor.keys.publicKey,
      }),
    });
    return person.toJsonLd({ format: "compact" });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", peer.url).pathname;
    if (req.method === "GET") {
      const signed =
        req.headers.signature !== undefined || req.headers["signature-input"] !== undefined;
      fetches.push({ path, signed });
    }
    if (req.method === "POST") {
      const text = await readBody(req);
      let body: Json = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the test looks at it.
      }
      deliveries.push({ path, headers: req.headers, body });
      res.writeHead(202).end();
      return;
    }
    const actor = actors.get(path);
    if (actor) {
      res.writeHead(200, { "content-type": "application/activity+json" });
      res.end(JSON.stringify(await actorDocument(actor)));
      return;
    }
    if (documents.has(path)) {
      const document = documents.get(path);
      if (document === null) {
        res.writeHead(410).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/activity+json" });
      res.end(JSON.stringify(document));
      return;
    }
    res.writeHead(404).end();
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const peer: FakePeer = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    deliveries,
    fetches,
    async actor(username, options = {}) {
      const id = options.instanceActor ? `${peer.url}/actor` : `${peer.url}/users/${username}`;
      const actor: FakeActor = {
        username,
        id,
        keyId: `${id}#main-key`,
        inbox: `${id}/inbox`,
        followers: `${id}/followers`,
        keys: await generateCryptoKeyPair("RSASSA-PKCS1-v1_5"),
        alsoKnownAs: options.alsoKnownAs ?? [],
        ...(options.movedTo ? { movedTo: options.movedTo } : {}),
        type: options.instanceActor ? "Application" : "Person",
        ...(options.featuredTags ? { featuredTags: `${id}/collections/tags` } : {}),
      };
      actors.set(new URL(id).pathname, actor);
      return actor;
    },
    put(path, document) {
      documents.set(path, document);
      return `${peer.url}${path}`;
    },
    gone(actor) {
      const path = new URL(actor.id).pathname;
      actors.delete(path);
      documents.set(path, null);
      // The signer is still needed to sign the actor's farewell Delete.
      retired.set(path, actor);
    },
    newId(kind = "objects") {
      counter += 1;
      return `${peer.url}/${kind}/${counter}`;
    },
    async send(inbox, activity, options = {}) {
      const body = options.rawBody ?? JSON.stringify(activity);
      const request = new Request(inbox, {
        method: "POST",
        headers: {
          "content-type": "application/activity+json",
          accept: "application/activity+json",
        },
        body,
      });
      if (options.unsigned) return fetch(request);
      const actorId = options.signer?.id ?? activity?.actor;
      const path = new URL(actorId).pathname;
      const signer = options.signer ?? actors.get(path) ?? retired.get(path);
      if (!signer) throw new Error(`no actor ${actorId} on this peer`);
      const signed = await signRequest(
        request,
        options.privateKey ?? signer.keys.privateKey,
        new URL(options.keyId ?? signer.keyId),
        options.rfc9421 ? { spec: "rfc9421" } : {},
      );
      if (options.bodySent === undefined && !options.chunked) return fetch(signed);
      const bytes = new TextEncoder().encode(options.bodySent ?? body);
      const sent = options.chunked
        ? new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(bytes);
              controller.close();
            },
          })
        : bytes;
      return fetch(signed.url, {
        method: "POST",
        headers: signed.headers,
        body: sent,
        duplex: "half",
      } as RequestInit);
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
  return peer;
}
