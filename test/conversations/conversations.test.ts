import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  createAppToken,
  createUsers,
  createUserWithToken,
  type TestUser,
} from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  accountAction,
  assertMatchesAnswer,
  block,
  deleteStatus,
  getList,
  type Json,
  links,
  makeStatus,
  mute,
} from "../interactions/helpers.ts";

const LIST = "/api/v1/conversations";

async function conversations(server: TestServer, user: TestUser, query = ""): Promise<Json[]> {
  const { body } = await getList(server, user, `${LIST}${query}`);
  for (const entry of body) assertMatchesSchema(entry, "Conversation");
  return body;
}

async function conversationAction(
  server: TestServer,
  user: TestUser | string | null,
  id: string,
  method: "POST" | "DELETE",
): Promise<{ status: number; body: Json }> {
  const path = method === "POST" ? `${LIST}/${id}/read` : `${LIST}/${id}`;
  const init: RequestInit & { token?: string } = { method };
  if (user !== null) init.token = typeof user === "string" ? user : user.token;
  const res = await server.request(path, init);
  const body: Json = await res.json();
  // The spec gives DELETE's 200 no schema; Mastodon answers an empty object.
  if (method === "DELETE" && res.status === 200) assert.deepEqual(body, {});
  else assertMatchesAnswer(method, path, res.status, body);
  return { status: res.status, body };
}

const accountIds = (entry: Json) => entry.accounts.map((a: Json) => a.id);

describe("direct-message conversations", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  before(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
  });
  after(() => server.close());

  it("shows a direct message to both sides: read for the author, unread for the recipient", async () => {
    const dm = await makeStatus(server, alice, "direct", { text: "@bob psst" });
    const [mine, ...moreOfMine] = await conversations(server, alice);
    assert.deepEqual(moreOfMine, []);
    assert.equal(mine.unread, false);
    assert.deepEqual(accountIds(mine), [bob.account.id]);
    assert.equal(mine.accounts[0].acct, "bob");
    assert.equal(mine.last_status.id, dm.id);
    assert.equal(mine.last_status.visibility, "direct");

    const [theirs, ...moreOfTheirs] = await conversations(server, bob);
    assert.deepEqual(moreOfTheirs, []);
    assert.equal(theirs.unread, true);
    assert.deepEqual(accountIds(theirs), [alice.account.id]);
    assert.equal(theirs.last_status.id, dm.id);
    assert.notEqual(theirs.id, mine.id, "each participant has an entry of their own");

    assert.deepEqual(await conversations(server, carol), []);

    // A reply in the thread moves both entries on; the replier has read it, the other has not.
    const reply = await makeStatus(server, bob, "direct", {
      text: "@alice what?",
      inReplyToId: dm.id,
    });
    const [mineAfter] = await conversations(server, alice);
    const [theirsAfter] = await conversations(server, bob);
    assert.equal(mineAfter.id, mine.id);
    assert.equal(theirsAfter.id, theirs.id);
    assert.equal(mineAfter.last_status.id, reply.id);
    assert.equal(theirsAfter.last_status.id, reply.id);
    assert.equal(mineAfter.unread, true);
    assert.equal(theirsAfter.unread, false);
    assert.equal(mineAfter.last_status.in_reply_to_id, dm.id);

    // Clean up for the next cases.
    for (const user of [alice, bob]) {
      for (const entry of await conversations(server, user)) {
        assert.equal((await conversationAction(server, user, entry.id, "DELETE")).status, 200);
      }
    }
  });

  it("marks a conversation read, only the viewer's own", async () => {
    await makeStatus(server, alice, "direct", { text: "@bob read this" });
    const [entry] = await conversations(server, bob);
    assert.equal(entry.unread, true);
    const [alicesEntry] = await conversations(server, alice);

    const read = await conversationAction(server, bob, entry.id, "POST");
    assert.equal(read.status, 200);
    assertMatchesResponse("POST", `${LIST}/${entry.id}/read`, 200, read.body);
    assert.deepEqual(read.body, { ...entry, unread: false });
    assert.equal((await conversations(server, bob))[0].unread, false);
    // Reading twice is fine.
    assert.equal((await conversationAction(server, bob, entry.id, "POST")).body.unread, false);

    for (const id of [alicesEntry.id, "999999999", "not-an-id"]) {
      const res = await conversationAction(server, bob, id, "POST");
      assert.equal(res.status, 404, id);
      assert.deepEqual(res.body, { error: "Record not found" });
    }
    // Bob's attempt on alice's entry changed nothing.
    assert.deepEqual((await conversations(server, alice))[0], alicesEntry);
  });

  it("removes only the viewer's entry; a new message brings it back", async () => {
    const [bobsEntry] = await conversations(server, bob);
    const [alicesEntry] = await conversations(server, alice);

    const foreign = await conversationAction(server, bob, alicesEntry.id, "DELETE");
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body, { error: "Record not found" });
    assert.equal((await conversations(server, alice)).length, 1);

    const removed = await conversationAction(server, bob, bobsEntry.id, "DELETE");
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, {});
    assert.deepEqual(await conversations(server, bob), []);
    assert.equal((await conversations(server, alice))[0].id, alicesEntry.id);
    const again = await conversationAction(server, bob, bobsEntry.id, "DELETE");
    assert.equal(again.status, 404);
    assert.equal((await conversationAction(server, bob, bobsEntry.id, "POST")).status, 404);

    const followUp = await makeStatus(server, alice, "direct", {
      text: "@bob still there?",
      inReplyToId: alicesEntry.last_status.id,
    });
    const [back] = await conversations(server, bob);
    assert.equal(back.unread, true);
    assert.equal(back.last_status.id, followUp.id);
    assert.notEqual(back.id, bobsEntry.id);
    assert.equal((await conversations(server, alice))[0].id, alicesEntry.id);

    for (const user of [alice, bob]) {
      for (const entry of await conversations(server, user)) {
        await conversationAction(server, user, entry.id, "DELETE");
      }
    }
  });

  it("falls back to the previous message when the last is deleted, and drops an emptied thread", async () => {
    const first = await makeStatus(server, alice, "direct", { text: "@carol one" });
    const second = await makeStatus(server, carol, "direct", {
      text: "@alice two",
      inReplyToId: first.id,
    });
    const third = await makeStatus(server, alice, "direct", {
      text: "@carol three",
      inReplyToId: second.id,
    });
    assert.equal((await conversations(server, carol))[0].last_status.id, third.id);

    // Deleting a message in the middle leaves the last one in place.
    await deleteStatus(server, carol, second.id);
    assert.equal((await conversations(server, carol))[0].last_status.id, third.id);
    assert.equal((await conversations(server, alice))[0].last_status.id, third.id);

    // Deleting the last one falls back to the newest one left (found below the deleted reply).
    await deleteStatus(server, alice, third.id);
    const [carolsEntry] = await conversations(server, carol);
    const [alicesEntry] = await conversations(server, alice);
    assert.equal(carolsEntry.last_status.id, first.id);
    assert.equal(alicesEntry.last_status.id, first.id);

    await deleteStatus(server, alice, first.id);
    assert.deepEqual(await conversations(server, carol), []);
    assert.deepEqual(await conversations(server, alice), []);
  });

  it("only direct statuses make conversations", async () => {
    for (const visibility of ["public", "unlisted", "private"] as const) {
      await makeStatus(server, alice, visibility, { text: `@bob @carol ${visibility}` });
    }
    assert.deepEqual(await conversations(server, alice), []);
    assert.deepEqual(await conversations(server, bob), []);
    assert.deepEqual(await conversations(server, carol), []);
  });

  it("lists every other participant, and the author alone for a note to self", async () => {
    const group = await makeStatus(server, alice, "direct", { text: "@bob @carol all of us" });
    const byUser = new Map<TestUser, Json>();
    for (const user of [alice, bob, carol]) {
      const [entry] = await conversations(server, user);
      assert.equal(entry.last_status.id, group.id);
      byUser.set(user, entry);
    }
    const sorted = (users: TestUser[]) => users.map((u) => u.account.id).sort();
    assert.deepEqual(accountIds(byUser.get(alice)).sort(), sorted([bob, carol]));
    assert.deepEqual(accountIds(byUser.get(bob)).sort(), sorted([alice, carol]));
    assert.deepEqual(accountIds(byUser.get(carol)).sort(), sorted([alice, bob]));

    const note = await makeStatus(server, bob, "direct", { text: "note to self" });
    const [newest] = await conversations(server, bob);
    assert.equal(newest.last_status.id, note.id);
    assert.deepEqual(accountIds(newest), [bob.account.id]);
    assert.equal(newest.unread, false);

    for (const user of [alice, bob, carol]) {
      for (const entry of await conversations(server, user)) {
        await conversationAction(server, user, entry.id, "DELETE");
      }
    }
  });

  it("gives nothing to recipients who block or mute the author or muted the thread", async () => {
    const [dave, erin, frank] = await createUsers(server, "dave", "erin", "frank");
    await block(server, bob, dave);
    await mute(server, carol, dave);
    // A mute that keeps notifications still lets direct messages through.
    const res = await server.request(`/api/v1/accounts/${dave.account.id}/mute`, {
      method: "POST",
      token: erin.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ notifications: false }),
    });
    assert.equal(res.status, 200);

    await makeStatus(server, dave, "direct", { text: "@bob @carol @erin @frank hello" });
    assert.deepEqual(await conversations(server, bob), []);
    assert.deepEqual(await conversations(server, carol), []);
    assert.equal((await conversations(server, erin)).length, 1);
    const [franks] = await conversations(server, frank);
    assert.equal(franks.unread, true);
    // The author's own entry lists everyone mentioned.
    const [daves] = await conversations(server, dave);
    assert.equal(daves.accounts.length, 4);

    // Frank mutes the thread: later messages in it no longer reach his list.
    const thread = franks.last_status.id;
    assert.equal(
      (
        await server.request(`/api/v1/statuses/${thread}/mute`, {
          method: "POST",
          token: frank.token,
        })
      ).status,
      200,
    );
    await conversationAction(server, frank, franks.id, "DELETE");
    await makeStatus(server, dave, "direct", { text: "@frank more", inReplyToId: thread });
    assert.deepEqual(await conversations(server, frank), []);

    // Unblocked, bob receives the next one.
    await accountAction(server, bob, dave, "unblock");
    await makeStatus(server, dave, "direct", { text: "@bob now?" });
    assert.equal((await conversations(server, bob)).length, 1);
    for (const user of [bob, erin, dave]) {
      for (const entry of await conversations(server, user)) {
        await conversationAction(server, user, entry.id, "DELETE");
      }
    }
  });

  it("pages by last status with Link headers", async () => {
    const gina = await createUserWithToken(server, "gina");
    const dms: Json[] = [];
    for (const user of [alice, bob, carol]) {
      dms.push(await makeStatus(server, user, "direct", { text: "@gina hi" }));
    }
    // Alice writes again in her thread: it becomes the newest conversation.
    dms.push(
      await makeStatus(server, alice, "direct", { text: "@gina again", inReplyToId: dms[0].id }),
    );
    const all = await conversations(server, gina);
    assert.deepEqual(
      all.map((c) => c.last_status.id),
      [dms[3].id, dms[2].id, dms[1].id],
    );

    const { res, body: first } = await getList(server, gina, `${LIST}?limit=2`);
    assert.deepEqual(
      first.map((c: Json) => c.id),
      all.slice(0, 2).map((c) => c.id),
    );
    const link = links(res);
    assert.equal(link.next, `${LIST}?limit=2&max_id=${dms[2].id}`);
    assert.equal(link.prev, `${LIST}?limit=2&min_id=${dms[3].id}`);
    const { body: second } = await getList(server, gina, link.next as string);
    assert.deepEqual(
      second.map((c: Json) => c.id),
      [all[2].id],
    );
    const { res: emptyRes, body: empty } = await getList(server, gina, link.prev as string);
    assert.deepEqual(empty, []);
    assert.equal(emptyRes.headers.get("link"), null);

    const { body: newer } = await getList(server, gina, `${LIST}?since_id=${dms[1].id}`);
    assert.equal(newer.length, 2);
    const { body: oldestFirst } = await getList(
      server,
      gina,
      `${LIST}?min_id=${dms[1].id}&limit=1`,
    );
    assert.deepEqual(
      oldestFirst.map((c: Json) => c.last_status.id),
      [dms[2].id],
    );
    assert.equal((await getList(server, gina, `${LIST}?limit=500`)).body.length, 3);

    for (const query of ["?limit=abc", "?max_id=abc", "?since_id[]=1"]) {
      const bad = await server.request(`${LIST}${query}`, { token: gina.token });
      assert.equal(bad.status, 422, query);
      assert.ok(((await bad.json()) as Json).error);
    }
  });

  it("needs a user token with the right scope", async () => {
    const anonymous = await server.request(LIST);
    assert.equal(anonymous.status, 401);
    const body: Json = await anonymous.json();
    assert.deepEqual(body, { error: "The access token is invalid" });
    assertMatchesResponse("GET", LIST, 401, body);
    assert.equal((await conversationAction(server, null, "1", "POST")).status, 401);
    assert.equal((await conversationAction(server, null, "1", "DELETE")).status, 401);
    assert.equal((await conversationAction(server, "bogus", "1", "DELETE")).status, 401);

    const reader = await createUserWithToken(server, "reader", ["read:statuses"]);
    const writer = await createUserWithToken(server, "writer", ["write:conversations"]);
    const poster = await createUserWithToken(server, "poster", ["write:statuses"]);
    await makeStatus(server, alice, "direct", { text: "@reader @writer hi" });

    const [readerEntry] = await conversations(server, reader);
    const forbidden = await conversationAction(server, reader, readerEntry.id, "POST");
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { error: "This action is outside the authorized scopes" });
    assert.equal((await conversationAction(server, reader, readerEntry.id, "DELETE")).status, 403);

    assert.equal((await server.request(LIST, { token: writer.token })).status, 403);
    assert.equal((await server.request(LIST, { token: poster.token })).status, 403);
    // write:statuses is not write:conversations.
    assert.equal((await conversationAction(server, poster, readerEntry.id, "POST")).status, 403);
    // The writer can act on its own entry without being able to list it.
    const writersEntry = (
      await server.wren.ctx.storage.conversations.listFor(writer.account.id, {
        limit: 1,
      })
    )[0];
    assert.ok(writersEntry);
    const read = await conversationAction(server, writer, writersEntry.id, "POST");
    assert.equal(read.status, 200);
    assert.equal(read.body.unread, false);
    assert.equal((await conversationAction(server, writer, writersEntry.id, "DELETE")).status, 200);

    const { token: appToken } = await createAppToken(server, ["read", "write"]);
    assert.equal((await server.request(LIST, { token: appToken })).status, 422);
    assert.equal((await conversationAction(server, appToken, readerEntry.id, "POST")).status, 422);
  });

  it("keeps conversations across a restart", async () => {
    const before = await conversations(server, alice);
    assert.ok(before.length > 0);
    await server.restart();
    assert.deepEqual(await conversations(server, alice), before);
  });
});
