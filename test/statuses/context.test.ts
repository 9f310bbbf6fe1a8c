import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, follow, type Json, post } from "./helpers.ts";

const STATUSES = "/api/v1/statuses";
const ids = (list: Json[]) => list.map((s) => s.id);

describe("GET /api/v1/statuses/:id/context", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let root: Json;
  let reply1: Json;
  let reply1a: Json;
  let reply1b: Json;
  let reply2: Json;
  let privateReply: Json;
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
    await follow(server, alice, bob);
    root = await post(server, alice, { status: "root" });
    reply1 = await post(server, bob, { status: "1", in_reply_to_id: root.id });
    reply2 = await post(server, alice, { status: "2", in_reply_to_id: root.id });
    reply1a = await post(server, alice, { status: "1a", in_reply_to_id: reply1.id });
    // bob's followers-only reply: alice follows bob, carol does not.
    privateReply = await post(server, bob, {
      status: "secret",
      in_reply_to_id: reply1a.id,
      visibility: "private",
    });
    reply1b = await post(server, carol, { status: "1b", in_reply_to_id: reply1.id });
  });
  after(() => server.close());

  it("lists descendants depth-first, siblings oldest first, without authorization", async () => {
    const body = await call(server, "GET", `${STATUSES}/${root.id}/context`);
    assert.deepEqual(body.ancestors, []);
    assert.deepEqual(ids(body.descendants), [reply1.id, reply1a.id, reply1b.id, reply2.id]);
  });

  it("lists ancestors from the root down", async () => {
    const body = await call(server, "GET", `${STATUSES}/${reply1a.id}/context`, {
      token: carol.token,
    });
    assert.deepEqual(ids(body.ancestors), [root.id, reply1.id]);
    assert.deepEqual(body.descendants, []);
  });

  it("shows a private reply only to those allowed to see it", async () => {
    const follower = await call(server, "GET", `${STATUSES}/${root.id}/context`, {
      token: alice.token,
    });
    assert.deepEqual(ids(follower.descendants), [
      reply1.id,
      reply1a.id,
      privateReply.id,
      reply1b.id,
      reply2.id,
    ]);
    const stranger = await call(server, "GET", `${STATUSES}/${root.id}/context`, {
      token: carol.token,
    });
    assert.equal(ids(stranger.descendants).includes(privateReply.id), false);
    // Nor can a stranger open the thread from the private reply itself.
    await call(
      server,
      "GET",
      `${STATUSES}/${privateReply.id}/context`,
      { token: carol.token },
      404,
    );
    const fromPrivate = await call(server, "GET", `${STATUSES}/${privateReply.id}/context`, {
      token: alice.token,
    });
    assert.deepEqual(ids(fromPrivate.ancestors), [root.id, reply1.id, reply1a.id]);
  });

  it("leaves out deleted statuses and answers 404 for unknown ones", async () => {
    const extra = await post(server, carol, { status: "gone", in_reply_to_id: reply2.id });
    await call(server, "DELETE", `${STATUSES}/${extra.id}`, { token: carol.token });
    const body = await call(server, "GET", `${STATUSES}/${root.id}/context`);
    assert.equal(ids(body.descendants).includes(extra.id), false);
    await call(server, "GET", `${STATUSES}/99999999/context`, {}, 404);
  });
});
