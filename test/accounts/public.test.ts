import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { remoteAccountRecord, statusRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

describe("public account endpoints", () => {
  let server: TestServer;
  let alice: TestUser;
  let remote: Account;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "Alice", ["read"]);
    await createUserWithToken(server, "alicia", ["read"]);
    await createUserWithToken(server, "bob", ["read"]);
    remote = remoteAccountRecord(server, "alice", "remote.example", {
      displayName: "Remote alice",
      noteHtml: "<p>remote</p>",
      avatar: {
        kind: "remote",
        url: "https://remote.example/a.png",
        staticUrl: "https://remote.example/a.png",
      },
    });
    await server.wren.ctx.storage.accounts.put(remote);
    const statuses = server.wren.ctx.storage.statuses;
    await statuses.put(
      statusRecord(server, alice.account, { createdAt: "2024-03-01T10:00:00.000Z" }),
    );
    await statuses.put(
      statusRecord(server, alice.account, { createdAt: "2024-03-05T22:30:00.000Z" }),
    );
  });
  after(() => server.close());

  describe("GET /api/v1/accounts/:id", () => {
    it("answers the account without a token, with counters", async () => {
      const path = `/api/v1/accounts/${alice.account.id}`;
      const res = await server.request(path);
      const body: Json = await res.json();
      assert.equal(res.status, 200);
      assertMatchesResponse("GET", path, 200, body);
      assert.equal(body.username, "Alice");
      assert.equal(body.statuses_count, 2);
      assert.equal(body.last_status_at, "2024-03-05");
      assert.equal(body.followers_count, 0);
      assert.equal("source" in body, false);
    });

    it("answers remote accounts with acct user@domain", async () => {
      const body: Json = await (await server.request(`/api/v1/accounts/${remote.id}`)).json();
      assert.equal(body.acct, "alice@remote.example");
      assert.equal(body.avatar, "https://remote.example/a.png");
    });

    it("answers 404 for unknown and non-numeric ids", async () => {
      for (const id of ["999999999", "abc", "1e5", "-1"]) {
        const path = `/api/v1/accounts/${id}`;
        const res = await server.request(path);
        assert.equal(res.status, 404, id);
        const body: Json = await res.json();
        assert.deepEqual(body, { error: "Record not found" });
      }
    });

    it("checks a token that is sent: 401 when invalid, 403 without a read scope", async () => {
      const path = `/api/v1/accounts/${alice.account.id}`;
      assert.equal((await server.request(path, { token: "bogus" })).status, 401);
      const writer = await createUserWithToken(server, "writer", ["write"]);
      assert.equal((await server.request(path, { token: writer.token })).status, 403);
      assert.equal((await server.request(path, { token: alice.token })).status, 200);
    });
  });

  describe("GET /api/v1/accounts/lookup", () => {
    it("finds local accounts as user, @user and user@our-domain, case-insensitively", async () => {
      const domain = new URL(server.url).host;
      for (const acct of ["Alice", "alice", "@alice", `alice@${domain}`, `@ALICE@${domain}`]) {
        const path = `/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`;
        const res = await server.request(path);
        const body: Json = await res.json();
        assert.equal(res.status, 200, acct);
        assertMatchesResponse("GET", path, 200, body);
        assert.equal(body.id, alice.account.id, acct);
      }
    });

    it("finds known remote accounts by user@domain", async () => {
      const body: Json = await (
        await server.request("/api/v1/accounts/lookup?acct=alice@remote.example")
      ).json();
      assert.equal(body.id, remote.id);
    });

    it("answers 404 for unknown names and a missing acct", async () => {
      for (const query of [
        "?acct=nobody",
        "?acct=alice@elsewhere.example",
        "?acct=",
        "",
        "?acct=@",
      ]) {
        const path = `/api/v1/accounts/lookup${query}`;
        const res = await server.request(path);
        assert.equal(res.status, 404, query);
        assertMatchesResponse("GET", path, 404, await res.json());
      }
    });
  });

  describe("GET /api/v1/accounts/search", () => {
    const search = "/api/v1/accounts/search";

    it("finds accounts by username and display name, exact matches first", async () => {
      const path = `${search}?q=ali`;
      const res = await server.request(path, { token: alice.token });
      const body: Json = await res.json();
      assert.equal(res.status, 200);
      assertMatchesResponse("GET", path, 200, body);
      assert.deepEqual(body.map((a: Json) => a.acct).sort(), [
        "Alice",
        "alice@remote.example",
        "alicia",
      ]);
      const exact: Json = await (
        await server.request(`${search}?q=alicia`, { token: alice.token })
      ).json();
      assert.equal(exact[0].acct, "alicia");
      const byName: Json = await (
        await server.request(`${search}?q=${encodeURIComponent("Remote alice")}`, {
          token: alice.token,
        })
      ).json();
      assert.deepEqual(
        byName.map((a: Json) => a.acct),
        ["alice@remote.example"],
      );
    });

    it("honours limit and offset and strips @ and our own domain", async () => {
      const one: Json = await (
        await server.request(`${search}?q=ali&limit=1`, { token: alice.token })
      ).json();
      assert.equal(one.length, 1);
      const all: Json = await (
        await server.request(`${search}?q=ali`, { token: alice.token })
      ).json();
      const second: Json = await (
        await server.request(`${search}?q=ali&limit=1&offset=1`, { token: alice.token })
      ).json();
      assert.equal(second[0].id, all[1].id);
      const domain = new URL(server.url).host;
      const own: Json = await (
        await server.request(`${search}?q=${encodeURIComponent(`@bob@${domain}`)}`, {
          token: alice.token,
        })
      ).json();
      assert.deepEqual(
        own.map((a: Json) => a.acct),
        ["bob"],
      );
    });

    it("answers [] for a blank query and for following=true while nobody is followed", async () => {
      for (const query of ["", "?q=", "?q=alice&following=true"]) {
        const res = await server.request(`${search}${query}`, { token: alice.token });
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), []);
      }
    });

    it("needs a user token with read:accounts", async () => {
      assert.equal((await server.request(`${search}?q=a`)).status, 401);
      const writer = await createUserWithToken(server, "writer2", ["write"]);
      assert.equal((await server.request(`${search}?q=a`, { token: writer.token })).status, 403);
      const { token } = await createAppToken(server, ["read"]);
      const res = await server.request(`${search}?q=a`, { token });
      assert.equal(res.status, 422);
      // The spec documents only ValidationError for this 422; the body is the plain Error form.
      assertMatchesSchema(await res.json(), "Error");
      const bad = await server.request(`${search}?q=a&limit=lots`, { token: alice.token });
      assert.equal(bad.status, 422);
    });
  });
});
