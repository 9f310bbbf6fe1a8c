// Wren's own delivery of queued activities (src/federation/outbox/deliver-message.ts,
// post-activity.ts, signing-keys.ts): the request a peer gets (a draft-cavage signature over
// `(request-target) host date digest`, as Mastodon verifies it, with a digest of the exact body),
// the second knock with RFC 9421, the address guard at the connection (a name that resolves to
// loopback is refused, and the address checked is the one connected to), and what follows a
// failure (retry with the policy's delay or the server's Retry-After, no retry after 404/410, a
// host's deliveries held once its circuit opens). Real HTTP servers on loopback: 127.0.0.2 plays
// a public peer (the guard is told to treat that address as public), 127.0.0.1 an internal
// service that must never be reached.

import assert from "node:assert/strict";
import { createHash, createPublicKey, verify, type webcrypto } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  CircuitBreaker,
  exportJwk,
  generateCryptoKeyPair,
  MemoryKvStore,
  type MessageQueue,
  type MessageQueueEnqueueOptions,
} from "@fedify/fedify";
import {
  createMessageDelivery,
  type OutboxMessage,
} from "../../src/federation/outbox/deliver-message.ts";
import { outboxRetryPolicy } from "../../src/federation/outbox/delivery-policy.ts";
import type { DeliveryTransport } from "../../src/federation/outbox/post-activity.ts";
import { createSigningKeys } from "../../src/federation/outbox/signing-keys.ts";
import { keepAliveAgents, type SafeFetchAgents } from "../../src/federation/safe-fetch.ts";
import { eventually } from "../helpers/federation.ts";

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  remoteAddress: string | undefined;
}

async function listen(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  server.listen(0, host);
  await once(server, "listening");
  return { server, port: (server.address() as AddressInfo).port };
}

/** Verifies a draft-cavage Signature header the way Mastodon does, with the sender's key. */
function verifyCavage(received: Received, publicKeyPem: string): string[] {
  const header = String(received.headers.signature);
  const fields = Object.fromEntries(
    [...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as [string, string]),
  );
  const names = (fields.headers ?? "").split(" ");
  const text = names
    .map((name) =>
      name === "(request-target)"
        ? `(request-target): post ${received.path}`
        : `${name}: ${String(received.headers[name])}`,
    )
    .join("\n");
  assert.ok(
    verify(
      "sha256",
      Buffer.from(text),
      createPublicKey(publicKeyPem),
      Buffer.from(fields.signature ?? "", "base64"),
    ),
    "the signature verifies",
  );
  return names;
}

describe("Wren's delivery of a queued activity", () => {
  let peer: { server: Server; port: number };
  let internal: { server: Server; port: number };
  const received: Received[] = [];
  let internalHits = 0;
  const servedOn = new WeakMap<object, number>();
  /** What the peer answers next (status, headers); 202 when empty. */
  const answers: { status: number; headers?: Record<string, string> }[] = [];
  let privateKey: webcrypto.CryptoKey;
  let publicKeyPem: string;
  let message: OutboxMessage;
  const queued: { message: OutboxMessage; options: MessageQueueEnqueueOptions | undefined }[] = [];
  const queue: MessageQueue = {
    async enqueue(m, options) {
      queued.push({ message: m as OutboxMessage, options });
    },
    async listen() {},
  };
  let kv: MemoryKvStore;
  let resolved: string[];

  const transport = (agents = keepAliveAgents()): DeliveryTransport => ({
    agents,
    userAgent: "WrenTest/1",
    allowPrivateAddress: false,
    timeoutMs: 2_000,
    guard: {
      isAllowedAddress: (address) => address === "127.0.0.2",
      resolveHost: async (name) => {
        resolved.push(name);
        if (name === "peer.example") return [{ address: "127.0.0.2", family: 4 }];
        if (name === "rebound.example" || name === "localhost") {
          return [{ address: "127.0.0.1", family: 4 }];
        }
        throw new Error("no such name");
      },
    },
  });
  const deliver = (agents?: SafeFetchAgents) =>
    createMessageDelivery({
      circuit: new CircuitBreaker({
        kv,
        prefix: ["circuit"],
        options: {
          failureThreshold: 2,
          failureWindow: { minutes: 10 },
          recoveryDelay: { minutes: 1 },
        },
      }),
      retryPolicy: outboxRetryPolicy({ firstRetryMs: 60_000, probeMs: 60_000 }),
      queue,
      keys: createSigningKeys(),
      transport: transport(agents),
    });
  const to = (inbox: string): OutboxMessage => ({ ...message, inbox });

  before(async () => {
    peer = await listen("127.0.0.2", (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const path = req.url ?? "";
        received.push({
          path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          remoteAddress: req.socket.localAddress,
        });
        // Only RFC 9421 gets in there (a server that knows no draft-cavage).
        if (path === "/rfc9421-only" && !req.headers["signature-input"]) {
          res.writeHead(401).end();
          return;
        }
        // A server that closes a kept-alive connection just as it is used again.
        if (path === "/drops-reused") {
          const served = (servedOn.get(req.socket) ?? 0) + 1;
          servedOn.set(req.socket, served);
          if (served > 1) {
            req.socket.destroy();
            return;
          }
        }
        if (path === "/moved") {
          res.writeHead(308, { location: "/inbox" }).end();
          return;
        }
        const answer = answers.shift() ?? { status: 202 };
        res.writeHead(answer.status, answer.headers).end("a body nobody reads");
      });
    });
    internal = await listen("127.0.0.1", (_req, res) => {
      internalHits++;
      res.writeHead(202).end();
    });
    const pair = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    privateKey = pair.privateKey;
    const spki = Buffer.from(await crypto.subtle.exportKey("spki", pair.publicKey));
    publicKeyPem = `-----BEGIN PUBLIC KEY-----\n${spki.toString("base64")}\n-----END PUBLIC KEY-----\n`;
    message = {
      type: "outbox",
      id: crypto.randomUUID(),
      baseUrl: "https://wren.example",
      keys: [
        {
          keyId: "https://wren.example/users/alice#main-key",
          privateKey: await exportJwk(privateKey),
        },
      ],
      activity: {
        "@context": "https://www.w3.org/ns/activitystreams",
        id: "https://wren.example/a/1",
        type: "Create",
        content: "héllo",
      },
      activityId: "https://wren.example/a/1",
      activityType: "https://www.w3.org/ns/activitystreams#Create",
      inbox: "",
      sharedInbox: true,
      actorIds: ["https://peer.example/users/bob"],
      started: new Date().toISOString(),
      attempt: 0,
      headers: {},
      orderingKey: "https://wren.example/notes/1\nhttp://peer.example",
      traceContext: {},
    };
  });
  after(() => {
    peer.server.close();
    internal.server.close();
    peer.server.closeAllConnections();
  });
  beforeEach(() => {
    received.length = 0;
    queued.length = 0;
    answers.length = 0;
    resolved = [];
    kv = new MemoryKvStore();
  });

  it("posts the queued body, signed as Mastodon verifies it, to the address it checked", async () => {
    await deliver()(to(`http://peer.example:${peer.port}/inbox`));
    assert.equal(received.length, 1);
    const [got] = received as [Received];
    assert.equal(got.body, JSON.stringify(message.activity));
    assert.equal(got.remoteAddress, "127.0.0.2");
    assert.equal(got.headers.host, `peer.example:${peer.port}`);
    assert.equal(got.headers["content-type"], "application/activity+json");
    const digest = createHash("sha256").update(got.body).digest("base64");
    assert.equal(got.headers.digest, `SHA-256=${digest}`);
    const names = verifyCavage(got, publicKeyPem);
    for (const name of ["(request-target)", "host", "date", "digest"])
      assert.ok(names.includes(name), name);
    assert.match(
      String(got.headers.signature),
      /keyId="https:\/\/wren\.example\/users\/alice#main-key"/,
    );
    assert.deepEqual(queued, [], "delivered: nothing is queued again");
  });

  it("knocks again with RFC 9421 when the peer refuses draft-cavage", async () => {
    await deliver()(to(`http://peer.example:${peer.port}/rfc9421-only`));
    assert.equal(received.length, 2);
    assert.ok(received[1]?.headers["signature-input"]);
    assert.deepEqual(queued, []);
  });

  it("refuses a name that resolves to loopback, at the connection, and drops the delivery", async () => {
    await deliver()(to(`http://rebound.example:${internal.port}/inbox`));
    await deliver()(to(`http://127.0.0.1:${internal.port}/inbox`));
    await deliver()(to(`http://localhost:${internal.port}/inbox`));
    assert.equal(internalHits, 0);
    assert.ok(resolved.includes("rebound.example"));
    assert.deepEqual(queued, [], "a refused address is not retried");
  });

  it("retries a 500 after the policy's delay, keeping the order key, and a 503 after Retry-After", async () => {
    answers.push({ status: 500 }, { status: 503, headers: { "retry-after": "120" } });
    const run = deliver();
    await run(to(`http://peer.example:${peer.port}/inbox`));
    await run(to(`http://peer.example:${peer.port}/inbox`));
    assert.equal(queued.length, 2);
    const [first, second] = queued as [(typeof queued)[0], (typeof queued)[0]];
    assert.equal(first.message.attempt, 1);
    assert.equal(first.options?.orderingKey, message.orderingKey);
    const firstDelay = first.options?.delay?.total({ unit: "millisecond" }) ?? 0;
    assert.ok(firstDelay >= 60_000 && firstDelay <= 120_000, String(firstDelay));
    // Two 5xx in a row open this test's circuit (threshold 2): the 503 is held, for its
    // Retry-After at least.
    assert.equal(second.message.circuitHeld, true);
    assert.ok((second.options?.delay?.total({ unit: "millisecond" }) ?? 0) >= 60_000);
    // The next one is not even tried while the circuit is open.
    await run(to(`http://peer.example:${peer.port}/inbox`));
    assert.equal(received.length, 2);
    assert.equal(queued[2]?.message.circuitHeld, true);
  });

  it("sends again at once on a new connection when a kept-alive one was closed under it", async () => {
    const agents = keepAliveAgents();
    const run = deliver(agents);
    await run(to(`http://peer.example:${peer.port}/drops-reused`));
    // A delivery ends at the answer's headers; its connection is back in the pool only once the
    // body has been drained, which under load can come a moment later.
    await eventually(
      () => assert.ok(Object.values(agents.http.freeSockets).some((free) => free?.length)),
      { interval: 5, timeout: 2_000 },
    );
    await run(to(`http://peer.example:${peer.port}/drops-reused`));
    assert.equal(queued.length, 0, "both delivered, no retry queued");
    assert.equal(received.length, 3, "the second went twice: reset, then on a new connection");
  });

  it("does not try again after 410, nor after a redirect it does not follow", async () => {
    answers.push({ status: 410 });
    await deliver()(to(`http://peer.example:${peer.port}/inbox`));
    assert.equal(queued.length, 0);
    await deliver()(to(`http://peer.example:${peer.port}/moved`));
    assert.equal(received.length, 2, "the redirect's target got nothing");
    assert.equal(queued[0]?.message.attempt, 1, "a redirect is retried, like any other answer");
  });

  it("imports each key once, and a replaced key anew", async () => {
    const keys = createSigningKeys();
    const jwk = await exportJwk(privateKey);
    const id = "https://wren.example/users/alice#main-key";
    assert.equal(await keys.get(id, jwk), await keys.get(id, { ...jwk }));
    const other = await exportJwk((await generateCryptoKeyPair("RSASSA-PKCS1-v1_5")).privateKey);
    assert.notEqual(await keys.get(id, other), await keys.get(id, jwk));
  });
});
