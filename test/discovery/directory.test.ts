// GET /api/v1/directory: discoverable accounts only (local and known remote), most recently
// active or newest first, `local`, offset paging, and a viewer's blocks, mutes and server
// blocks left out.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import { call, type Json } from "../graph/helpers.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MANY_REQUESTS, postStatus } from "../timelines/helpers.ts";

describe("profile directory", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let hidden: TestUser;
  let viewer: TestUser;
  let rita: Account;

  const directory = async (query: string, token?: string): Promise<string[]> => {
    const res = await call(server, "GET", `/api/v1/directory${query}`, token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesResponse("GET", "/api/v1/directory", 200, res.body);
    return res.body.map((a: Json) => a.id);
  };

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    [alice, bob, carol, hidden, viewer] = await createUsers(
      server,
      "alice",
      "bob",
      "carol",
      "hidden",
      "viewer",
    );
    for (const u of [alice, bob, carol]) {
      const res = await call(server, "PATCH", "/api/v1/accounts/update_credentials", u.token, {
        discoverable: true,
      });
      assert.equal(res.status, 200);
    }
    rita = remoteAccountRecord(server, "rita", "remote.example", { discoverable: true });
    await server.wren.ctx.storage.accounts.put(rita);
    // Activity: carol posted first, then alice; bob never; hidden posts but is not discoverable.
    await postStatus(server, carol.token, { status: "first" });
    await postStatus(server, alice.token, { status: "second" });
    await postStatus(server, hidden.token, { status: "third" });
  });
  after(() => server.close());

  it("lists discoverable accounts, the most recently active first, without a token", async () => {
    const listed = await directory("");
    assert.deepEqual(listed.slice(0, 2), [alice.account.id, carol.account.id]);
    assert.deepEqual(
      new Set(listed.slice(2)),
      new Set([bob.account.id, rita.id]),
      "accounts that never posted come after",
    );
    assert.ok(!listed.includes(hidden.account.id));
    assert.ok(!listed.includes(viewer.account.id));
    assert.deepEqual(await directory("?order=active"), listed);
  });

  it("orders by newest account, keeps to local ones, and pages by offset", async () => {
    assert.deepEqual(await directory("?order=new"), [
      rita.id,
      carol.account.id,
      bob.account.id,
      alice.account.id,
    ]);
    assert.deepEqual(await directory("?order=new&local=true"), [
      carol.account.id,
      bob.account.id,
      alice.account.id,
    ]);
    assert.deepEqual(await directory("?order=new&limit=2&offset=1"), [
      carol.account.id,
      bob.account.id,
    ]);
    assert.deepEqual(await directory("?order=new&offset=10"), []);
  });

  it("leaves out whom the viewer blocks, mutes or is blocked by, and blocked servers", async () => {
    const all = await directory("?order=new", viewer.token);
    assert.equal(all.length, 4);
    await call(server, "POST", `/api/v1/accounts/${alice.account.id}/block`, viewer.token);
    await call(server, "POST", `/api/v1/accounts/${bob.account.id}/mute`, viewer.token);
    await call(server, "POST", `/api/v1/accounts/${viewer.account.id}/block`, carol.token);
    await call(server, "POST", "/api/v1/domain_blocks", viewer.token, {
      domain: "remote.example",
    });
    assert.deepEqual(await directory("?order=new", viewer.token), []);
    // Others still see everyone.
    assert.equal((await directory("?order=new", alice.token)).length, 4);
  });

  it("answers 422 for an unknown order", async () => {
    const res = await call(server, "GET", "/api/v1/directory?order=popular");
    assert.equal(res.status, 422);
    assert.equal(typeof res.body.error, "string");
  });
});
