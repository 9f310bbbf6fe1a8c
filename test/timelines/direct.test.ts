// GET /api/v1/timelines/direct: the direct statuses the viewer wrote or is mentioned in, newest
// first and paged, never a public post, a direct message between others, or one from an account
// the viewer muted; a user token with read:statuses is required.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { getList, type Json, makeStatus, mute, walk } from "../interactions/helpers.ts";

const PATH = "/api/v1/timelines/direct";

describe("the direct timeline", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startTestServer();
    [alice, bob, carol, dave] = await createUsers(server, "alice", "bob", "carol", "dave");
    ids.toBob = (await makeStatus(server, alice, "direct", { text: "@bob hi" })).id;
    ids.public = (await makeStatus(server, alice, "public", { text: "@bob in public" })).id;
    ids.reply = (
      await makeStatus(server, bob, "direct", { text: "@alice hello", inReplyToId: ids.toBob })
    ).id;
    ids.carolToBob = (await makeStatus(server, carol, "direct", { text: "@bob secret" })).id;
    ids.daveToAlice = (await makeStatus(server, dave, "direct", { text: "@alice psst" })).id;
  });
  after(() => server.close());

  const timeline = async (user: TestUser, query = "") =>
    (await getList(server, user, `${PATH}${query}`)).body.map((s: Json) => s.id);

  it("lists what the viewer wrote or was mentioned in, newest first", async () => {
    assert.deepEqual(await timeline(alice), [ids.daveToAlice, ids.reply, ids.toBob]);
    assert.deepEqual(await timeline(bob), [ids.carolToBob, ids.reply, ids.toBob]);
    assert.deepEqual(await timeline(carol), [ids.carolToBob]);
  });

  it("pages with Link headers", async () => {
    const { down, up } = await walk(server, alice, `${PATH}?limit=1`);
    assert.deepEqual(down, [ids.daveToAlice, ids.reply, ids.toBob]);
    assert.deepEqual(up, down);
    assert.deepEqual(await timeline(alice, `?max_id=${ids.daveToAlice}`), [ids.reply, ids.toBob]);
    assert.deepEqual(await timeline(alice, `?min_id=${ids.toBob}&limit=1`), [ids.reply]);
  });

  it("leaves out accounts the viewer muted", async () => {
    await mute(server, alice, dave);
    assert.deepEqual(await timeline(alice), [ids.reply, ids.toBob]);
  });

  it("needs a user token with read:statuses", async () => {
    assert.equal((await server.request(PATH)).status, 401);
    const writer = await createUserWithToken(server, "erin", ["write"]);
    const refused = await server.request(PATH, { token: writer.token });
    assert.equal(refused.status, 403);
    assert.ok(((await refused.json()) as { error?: string }).error);
  });
});
