// megalodon (the client library of Whalebird and other apps) picks its API from NodeInfo with
// `detector()`: a Wren must be recognised as speaking Mastodon's API, and then be usable as one.
// The real library over real HTTP.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import generator, { detector } from "megalodon";
import { MASTODON_API_COMPATIBILITY } from "../../src/domain/software.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("megalodon", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ WREN_INSTANCE_TITLE: "Wren for megalodon" });
  });
  after(() => server.close());

  it("detects a Wren as a Mastodon-API server", async () => {
    assert.equal(await detector(server.url), "mastodon");
  });

  it("reads the instance through its Mastodon client", async () => {
    const client = generator("mastodon", server.url);
    const instance = await client.getInstance();
    assert.equal(instance.status, 200);
    assert.equal(instance.data.title, "Wren for megalodon");
  });

  it("names the upstream API in both NodeInfo versions", async () => {
    for (const version of ["2.0", "2.1"]) {
      const res = await server.request(`/nodeinfo/${version}`);
      assert.equal(res.status, 200);
      const info = (await res.json()) as {
        software: { name: string };
        metadata: { upstream?: { name: string; version: string } };
      };
      assert.equal(info.software.name, "wren");
      assert.deepEqual(info.metadata.upstream, {
        name: "mastodon",
        version: MASTODON_API_COMPATIBILITY,
      });
    }
  });
});
