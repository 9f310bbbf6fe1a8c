// Rate limits behind a reverse proxy: a trusted proxy's X-Forwarded-For names the client; an
// untrusted peer cannot pick its own address by sending the header.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

async function remaining(server: TestServer, forwardedFor?: string): Promise<string | null> {
  const headers: Record<string, string> = forwardedFor ? { "x-forwarded-for": forwardedFor } : {};
  const res = await server.request("/api/v1/no-such-thing", { headers });
  await res.body?.cancel();
  return res.headers.get("x-ratelimit-remaining");
}

describe("client address behind a trusted proxy", () => {
  let server: TestServer;
  before(async () => {
    // The test talks from 127.0.0.1, inside the default trusted range.
    server = await startTestServer({ WREN_RATE_LIMIT_REQUESTS: "10" });
  });
  after(() => server.close());

  it("counts each forwarded client on its own budget", async () => {
    assert.equal(await remaining(server, "203.0.113.5"), "9");
    assert.equal(await remaining(server, "203.0.113.5"), "8");
    assert.equal(await remaining(server, "198.51.100.7"), "9");
  });

  it("takes the nearest untrusted hop, not what the client wrote further left", async () => {
    // A client forging "1.2.3.4" before its real address, then a trusted inner proxy.
    assert.equal(await remaining(server, "1.2.3.4, 192.0.2.9, 127.0.0.1"), "9");
    assert.equal(await remaining(server, "5.6.7.8, 192.0.2.9"), "8");
  });
});

describe("client address without trusted proxies", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      WREN_RATE_LIMIT_REQUESTS: "10",
      WREN_TRUSTED_PROXIES: "none",
    });
  });
  after(() => server.close());

  it("ignores X-Forwarded-For from an untrusted peer", async () => {
    assert.equal(await remaining(server, "203.0.113.5"), "9");
    assert.equal(await remaining(server, "198.51.100.7"), "8");
    assert.equal(await remaining(server), "7");
  });
});
