// Discovery: WebFinger (acct: and actor URL), host-meta and NodeInfo 2.1 with real usage.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { post } from "../statuses/helpers.ts";
import type { Json } from "./helpers.ts";

async function getJson(server: TestServer, path: string, expected = 200): Promise<Json> {
  const res = await server.request(path);
  const text = await res.text();
  assert.equal(res.status, expected, `${path}: ${text}`);
  return text === "" ? null : JSON.parse(text);
}

describe("discovery", () => {
  let server: TestServer;
  let host: string;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer();
    host = new URL(server.url).host;
    alice = await createUserWithToken(server, "alice", ["read", "write"]);
  });

  after(() => server.close());

  it("resolves acct: handles, case-insensitively, to the actor", async () => {
    for (const resource of [`acct:alice@${host}`, `acct:ALICE@${host}`]) {
      const res = await server.request(
        `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
      );
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^application\/jrd\+json/);
      const jrd: Json = await res.json();
      // The canonical handle whatever the spelling asked for (peers store the subject).
      assert.equal(jrd.subject, `acct:alice@${host}`);
      const self = jrd.links.find((l: Json) => l.rel === "self");
      assert.equal(self.type, "application/activity+json");
      assert.equal(self.href, `${server.url}/users/alice`);
      const profile = jrd.links.find(
        (l: Json) => l.rel === "http://webfinger.net/rel/profile-page",
      );
      assert.equal(profile.href, `${server.url}/@alice`);
    }
  });

  it("answers the acct: handle as subject, the actor URL and profile page as aliases", async () => {
    // Asked by handle or by actor URL (as Mastodon's search does for a pasted link), the
    // answer is the same: peers store the subject as the account's handle.
    for (const resource of [`acct:alice@${host}`, `${server.url}/users/alice`]) {
      const jrd = await getJson(
        server,
        `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
      );
      assert.equal(jrd.subject, `acct:alice@${host}`, resource);
      assert.deepEqual(jrd.aliases, [`${server.url}/users/alice`, `${server.url}/@alice`]);
      assert.equal(jrd.links.find((l: Json) => l.rel === "self").href, `${server.url}/users/alice`);
    }
  });

  it("answers 404 for unknown or foreign accounts and 400 without a resource", async () => {
    await getJson(
      server,
      `/.well-known/webfinger?resource=${encodeURIComponent(`acct:nobody@${host}`)}`,
      404,
    );
    await getJson(
      server,
      `/.well-known/webfinger?resource=${encodeURIComponent("acct:alice@elsewhere.example")}`,
      404,
    );
    const res = await server.request("/.well-known/webfinger");
    assert.equal(res.status, 400);
  });

  it("serves host-meta pointing at WebFinger", async () => {
    const res = await server.request("/.well-known/host-meta");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/xrd\+xml/);
    const xml = await res.text();
    assert.ok(
      xml.includes(
        `<Link rel="lrdd" template="${server.url}/.well-known/webfinger?resource={uri}"/>`,
      ),
    );
  });

  it("publishes NodeInfo 2.1 with real usage figures", async () => {
    const links = await getJson(server, "/.well-known/nodeinfo");
    const link = links.links.find(
      (l: Json) => l.rel === "http://nodeinfo.diaspora.software/ns/schema/2.1",
    );
    assert.equal(link.href, `${server.url}/nodeinfo/2.1`);

    const empty = await getJson(server, "/nodeinfo/2.1");
    assert.equal(empty.version, "2.1");
    assert.equal(empty.software.name, "wren");
    assert.match(empty.software.version, /^\d+\.\d+\.\d+/);
    assert.deepEqual(empty.protocols, ["activitypub"]);
    assert.equal(typeof empty.openRegistrations, "boolean");
    assert.deepEqual(empty.usage.users, { total: 1, activeMonth: 0, activeHalfyear: 0 });
    assert.equal(empty.usage.localPosts, 0);

    const bob = await createUserWithToken(server, "bob", ["read", "write"]);
    await createUserWithToken(server, "carol", ["read", "write"]);
    await post(server, alice, { status: "one" });
    await post(server, alice, { status: "two", visibility: "private" });
    const gone = await post(server, bob, { status: "three" });
    const del = await server.request(`/api/v1/statuses/${gone.id}`, {
      method: "DELETE",
      token: bob.token,
    });
    assert.equal(del.status, 200);
    await post(server, bob, { status: "four" });

    const info = await getJson(server, "/nodeinfo/2.1");
    assert.deepEqual(info.usage.users, { total: 3, activeMonth: 2, activeHalfyear: 2 });
    assert.equal(info.usage.localPosts, 3);
  });

  it("publishes NodeInfo 2.0 with the same figures, linked beside 2.1", async () => {
    const links = await getJson(server, "/.well-known/nodeinfo");
    const rels = links.links.map((l: Json) => [l.rel, l.href]);
    assert.deepEqual(rels, [
      ["http://nodeinfo.diaspora.software/ns/schema/2.0", `${server.url}/nodeinfo/2.0`],
      ["http://nodeinfo.diaspora.software/ns/schema/2.1", `${server.url}/nodeinfo/2.1`],
    ]);
    const res = await server.request("/nodeinfo/2.0");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /schema\/2\.0#/);
    const info: Json = await res.json();
    const current = await getJson(server, "/nodeinfo/2.1");
    assert.equal(info.version, "2.0");
    assert.deepEqual(Object.keys(info.software).sort(), ["name", "version"]);
    assert.equal(info.software.name, "wren");
    assert.deepEqual(info.usage, current.usage);
    assert.equal(info.openRegistrations, current.openRegistrations);
  });
});

describe("WebFinger subject", () => {
  let server: TestServer;
  let host: string;

  before(async () => {
    server = await startTestServer();
    host = new URL(server.url).host;
    await createUserWithToken(server, "Zoe_Q");
  });

  after(() => server.close());

  it("answers with the stored spelling of a mixed-case username", async () => {
    for (const asked of ["zoe_q", "ZOE_Q", "Zoe_Q"]) {
      const jrd = await getJson(
        server,
        `/.well-known/webfinger?resource=${encodeURIComponent(`acct:${asked}@${host.toUpperCase()}`)}`,
      );
      assert.equal(jrd.subject, `acct:Zoe_Q@${host}`, asked);
      assert.equal(jrd.links.find((l: Json) => l.rel === "self").href, `${server.url}/users/Zoe_Q`);
    }
  });

  it("answers the stored spelling for the actor URL too", async () => {
    const jrd = await getJson(
      server,
      `/.well-known/webfinger?resource=${encodeURIComponent(`${server.url}/users/Zoe_Q`)}`,
    );
    assert.equal(jrd.subject, `acct:Zoe_Q@${host}`);
    assert.ok(jrd.aliases.includes(`${server.url}/users/Zoe_Q`));
    assert.ok(!jrd.aliases.includes(jrd.subject));
  });
});
