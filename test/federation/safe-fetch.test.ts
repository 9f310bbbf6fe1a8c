// The SSRF guard for remote documents: address classification, refusal of loopback and
// private targets (directly, by name, and after redirects), caps on redirects, bytes and time,
// and the Fedify loaders built on it. Real HTTP servers on loopback: one on 127.0.0.2 plays a
// "public" peer (the tests tell the guard to treat that one address as public, and resolve
// names to it), one on 127.0.0.1 plays an internal service that must never be reached.

import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { generateCryptoKeyPair, MemoryKvStore } from "@fedify/fedify";
import { isPublicAddress } from "../../src/federation/public-address.ts";
import {
  createSafeDocumentLoader,
  type HostResolver,
  keepAliveAgents,
  remoteFetchOptions,
  SafeFetchError,
  type SafeFetchOptions,
  safeAuthenticatedLoaderFactory,
  safeDocumentLoaderFactory,
  safeFetch,
} from "../../src/federation/safe-fetch.ts";
import { startTestServer } from "../helpers/server.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(host: string, handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  server.listen(0, host);
  await once(server, "listening");
  return { server, port: (server.address() as AddressInfo).port };
}

describe("isPublicAddress", () => {
  it("accepts public unicast addresses only", () => {
    const publicOnes = ["8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"];
    const refused = [
      "127.0.0.1",
      "127.255.0.9",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "192.0.2.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "fd00:ec2::254",
      "ff02::1",
      "2001:db8::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::127.0.0.1",
      "64:ff9b::a00:1",
      "64:ff9b:1::1",
      "2002:c0a8:101::1",
      "[::1]",
      "localhost",
      "example.com",
      "",
    ];
    for (const a of publicOnes) assert.equal(isPublicAddress(a), true, a);
    for (const a of refused) assert.equal(isPublicAddress(a), false, a);
  });
});

describe("safeFetch", () => {
  let peer: { server: Server; port: number };
  let internal: { server: Server; port: number };
  let internalHits = 0;
  let lastHost: string | undefined;
  let lastHeaders: IncomingMessage["headers"] = {};

  // public.example and the bare 127.0.0.2 are the "public" peer; anything else is internal.
  const resolveHost: HostResolver = async (name) => {
    if (name === "public.example") return [{ address: "127.0.0.2", family: 4 }];
    if (name === "mixed.example") {
      return [
        { address: "127.0.0.2", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ];
    }
    if (name === "internal.example") return [{ address: "127.0.0.1", family: 4 }];
    throw new Error("NXDOMAIN");
  };
  const guard = (extra: SafeFetchOptions = {}): SafeFetchOptions => ({
    resolveHost,
    isAllowedAddress: (address) => address === "127.0.0.2",
    ...extra,
  });
  const peerUrl = (path: string) => `http://public.example:${peer.port}${path}`;

  before(async () => {
    internal = await listen("127.0.0.1", (_req, res) => {
      internalHits++;
      res.end("internal secret");
    });
    peer = await listen("127.0.0.2", (req, res) => {
      lastHost = req.headers.host;
      lastHeaders = req.headers;
      const url = new URL(req.url ?? "/", "http://x");
      const hops = Number(url.searchParams.get("hops") ?? "0");
      switch (url.pathname) {
        case "/doc":
          res.setHeader("content-type", "application/activity+json");
          res.end(JSON.stringify({ id: peerUrl("/doc"), type: "Note", content: "hi" }));
          return;
        case "/chain":
          res.statusCode = 302;
          res.setHeader("location", hops > 0 ? `/chain?hops=${hops - 1}` : "/doc");
          res.end();
          return;
        case "/to-internal-ip":
          res.statusCode = 301;
          res.setHeader("location", `http://127.0.0.1:${internal.port}/secret`);
          res.end();
          return;
        case "/to-internal-name":
          res.statusCode = 307;
          res.setHeader("location", `http://internal.example:${internal.port}/secret`);
          res.end();
          return;
        case "/to-metadata":
          res.statusCode = 302;
          res.setHeader("location", "http://169.254.169.254/latest/meta-data/");
          res.end();
          return;
        case "/to-file":
          res.statusCode = 302;
          res.setHeader("location", "file:///etc/passwd");
          res.end();
          return;
        case "/big-declared":
          res.setHeader("content-length", String(2 * 1024 * 1024));
          res.end(Buffer.alloc(2 * 1024 * 1024, 32));
          return;
        case "/big-chunked": {
          // No length announced: the guard must count as it reads.
          const chunk = Buffer.alloc(64 * 1024, 32);
          let sent = 0;
          const pump = () => {
            while (sent < 64 && res.write(chunk)) sent++;
            if (sent >= 64) res.end();
            else res.once("drain", pump);
          };
          res.on("error", () => {});
          pump();
          return;
        }
        case "/stall":
          // Headers, then nothing: only the time cap ends this.
          res.writeHead(200, { "content-type": "application/activity+json" });
          res.write("{");
          return;
        case "/signed":
          res.setHeader("content-type", "application/activity+json");
          if (!req.headers.signature && !req.headers["signature-input"]) {
            res.statusCode = 401;
            res.end("{}");
            return;
          }
          res.end(JSON.stringify({ id: peerUrl("/signed"), type: "Note" }));
          return;
        case "/rfc9421-only":
          res.setHeader("content-type", "application/activity+json");
          if (!req.headers["signature-input"]) {
            res.statusCode = 401;
            res.end("{}");
            return;
          }
          res.end(JSON.stringify({ id: peerUrl("/rfc9421-only"), type: "Note" }));
          return;
        default:
          res.statusCode = 404;
          res.end();
      }
    });
  });

  after(() => {
    peer.server.closeAllConnections();
    internal.server.closeAllConnections();
    peer.server.close();
    internal.server.close();
  });

  async function refused(promise: Promise<unknown>, reason: RegExp): Promise<void> {
    await assert.rejects(promise, (error: unknown) => {
      assert.ok(error instanceof SafeFetchError, String(error));
      assert.match(error.message, reason);
      return true;
    });
  }

  it("fetches from a public address, connecting to the address it checked", async () => {
    const response = await safeFetch(peerUrl("/doc"), {}, guard());
    assert.equal(response.status, 200);
    assert.equal(response.url, peerUrl("/doc"));
    assert.equal(((await response.json()) as { type: string }).type, "Note");
    assert.equal(lastHost, `public.example:${peer.port}`);
  });

  it("refuses loopback and private targets by address and by name", async () => {
    const before = internalHits;
    // Without the test's override, even the "public" peer is loopback and refused.
    await refused(safeFetch(`http://127.0.0.2:${peer.port}/doc`), /not a public address/);
    await refused(safeFetch(`http://127.0.0.1:${internal.port}/`), /not a public address/);
    await refused(safeFetch(`http://localhost:${internal.port}/`), /not a public address/);
    await refused(safeFetch(`http://[::1]:${internal.port}/`), /not a public address/);
    await refused(safeFetch(`http://[::ffff:127.0.0.1]:${internal.port}/`), /not a public/);
    await refused(safeFetch("http://169.254.169.254/latest/meta-data/"), /not a public/);
    await refused(
      safeFetch(`http://internal.example:${internal.port}/`, {}, guard()),
      /not a public address/,
    );
    // One private address among public ones is enough to refuse the name.
    await refused(
      safeFetch(`http://mixed.example:${peer.port}/doc`, {}, guard()),
      /not a public address/,
    );
    await refused(safeFetch("http://nx.example/", {}, guard()), /does not resolve/);
    await refused(safeFetch("file:///etc/passwd", {}, guard()), /unsupported protocol/);
    assert.equal(internalHits, before);
  });

  it("reuses kept-alive connections through a pool, still checking every name it resolves", async () => {
    const agents = keepAliveAgents();
    let flipped = false;
    const flipping: HostResolver = async (name) =>
      name === "flip.example" && flipped
        ? [{ address: "127.0.0.1", family: 4 }]
        : resolveHost(name === "flip.example" ? "public.example" : name);
    let opened = 0;
    const count = () => {
      opened++;
    };
    peer.server.on("connection", count);
    try {
      const url = `http://flip.example:${peer.port}/doc`;
      const options = guard({ resolveHost: flipping, agents });
      for (let i = 0; i < 3; i++) {
        const response = await safeFetch(url, {}, options);
        assert.equal(response.status, 200);
        await response.arrayBuffer();
      }
      assert.equal(opened, 1);
      // The name now points inside: refused, the pooled connection to its old address unused.
      flipped = true;
      await refused(safeFetch(url, {}, options), /not a public address/);
      assert.equal(opened, 1);
    } finally {
      peer.server.off("connection", count);
      agents.http.destroy();
      agents.https.destroy();
    }
  });

  it("checks every redirect hop the same way", async () => {
    const before = internalHits;
    await refused(safeFetch(peerUrl("/to-internal-ip"), {}, guard()), /not a public address/);
    await refused(safeFetch(peerUrl("/to-internal-name"), {}, guard()), /not a public address/);
    await refused(safeFetch(peerUrl("/to-metadata"), {}, guard()), /not a public address/);
    await refused(safeFetch(peerUrl("/to-file"), {}, guard()), /unsupported protocol/);
    assert.equal(internalHits, before, "the internal service was never reached");
  });

  it("follows at most five redirects", async () => {
    const five = await safeFetch(peerUrl("/chain?hops=4"), {}, guard());
    assert.equal(five.status, 200);
    assert.equal(five.url, peerUrl("/doc"));
    await refused(safeFetch(peerUrl("/chain?hops=5"), {}, guard()), /too many redirects/);
    await refused(
      safeFetch(peerUrl("/chain?hops=1"), {}, guard({ maxRedirects: 1 })),
      /too many redirects/,
    );
  });

  it("caps the response size, announced or not", async () => {
    await refused(safeFetch(peerUrl("/big-declared"), {}, guard()), /larger than 1048576/);
    await refused(safeFetch(peerUrl("/big-chunked"), {}, guard()), /larger than 1048576/);
    const small = await safeFetch(peerUrl("/doc"), {}, guard({ maxBytes: 10 })).catch((e) => e);
    assert.ok(small instanceof SafeFetchError);
  });

  it("caps the time a fetch may take", async () => {
    await refused(safeFetch(peerUrl("/stall"), {}, guard({ timeoutMs: 300 })), /timed out/);
  });

  it("loads JSON-LD documents, with the well-known contexts built in", async () => {
    const load = createSafeDocumentLoader({ userAgent: "WrenTest/1", ...guard() });
    const doc = await load(peerUrl("/doc"));
    assert.equal((doc.document as { type: string }).type, "Note");
    assert.equal(doc.documentUrl, peerUrl("/doc"));
    assert.equal(lastHeaders["user-agent"], "WrenTest/1");
    assert.match(String(lastHeaders.accept), /application\/activity\+json/);
    const context = await load("https://www.w3.org/ns/activitystreams");
    assert.ok(context.document);
    await assert.rejects(load(peerUrl("/to-internal-ip")), SafeFetchError);
    await assert.rejects(load(peerUrl("/missing")), /404/);
  });

  it("hands every context the same cached loader", async () => {
    // Fedify asks for a loader per request and per queued task; building a cache per call cost
    // about 8% of the inbox's CPU.
    const factory = safeDocumentLoaderFactory({
      userAgent: "WrenTest/1",
      ...guard(),
      kv: new MemoryKvStore(),
    });
    const first = factory({});
    assert.equal(factory({}), first);
    const doc = await first(peerUrl("/doc"));
    assert.equal((doc.document as { type: string }).type, "Note");
  });

  it("signs GETs with draft-cavage, and retries with RFC 9421 when refused", async () => {
    const { privateKey } = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    const factory = safeAuthenticatedLoaderFactory({ userAgent: "WrenTest/1", ...guard() });
    const load = factory({ keyId: new URL("https://wren.example/users/x#main-key"), privateKey });
    const signed = await load(peerUrl("/signed"));
    assert.equal((signed.document as { type: string }).type, "Note");
    assert.match(
      String(lastHeaders.signature),
      /keyId="https:\/\/wren\.example\/users\/x#main-key"/,
    );
    const rfc = await load(peerUrl("/rfc9421-only"));
    assert.equal((rfc.document as { type: string }).type, "Note");
    assert.ok(lastHeaders["signature-input"]);
    await assert.rejects(load(peerUrl("/to-internal-name")), SafeFetchError);
  });

  it("keeps a running server's lookups away from loopback services", async () => {
    const wren = await startTestServer();
    try {
      const before = internalHits;
      const { remote } = wren.wren.ctx;
      assert.equal(
        await remote.resolveAccount(`http://127.0.0.1:${internal.port}/users/x`),
        undefined,
      );
      assert.equal(
        await remote.resolveStatus(`http://127.0.0.1:${internal.port}/notes/1`),
        undefined,
      );
      assert.equal(await remote.resolveAccount(`x@localhost:${internal.port}`), undefined);
      assert.equal(internalHits, before);
    } finally {
      await wren.close();
    }
  });

  it("gives Fedify the guarded loaders only when private addresses are not allowed", () => {
    const kv = {} as Parameters<typeof remoteFetchOptions>[0]["kv"];
    const open = remoteFetchOptions({
      publicUrl: "https://w.example",
      allowPrivateAddress: true,
      kv,
    });
    assert.equal(open.allowPrivateAddress, true);
    assert.equal(open.documentLoaderFactory, undefined);
    const guarded = remoteFetchOptions({
      publicUrl: "https://w.example",
      allowPrivateAddress: false,
      kv,
    });
    assert.equal(guarded.userAgent, undefined);
    assert.equal(typeof guarded.documentLoaderFactory, "function");
    assert.equal(typeof guarded.contextLoaderFactory, "function");
    assert.equal(typeof guarded.authenticatedDocumentLoaderFactory, "function");
  });
});
