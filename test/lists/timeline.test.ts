// GET /api/v1/timelines/list/:id: the members' statuses and boosts under the owner's home rules
// (replies to strangers, mutes, blocks, visibility), the list's replies_policy, paging with
// Link headers; and exclusive lists, whose members leave the owner's home timeline.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { call } from "../graph/helpers.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  assertNewestFirst,
  follow,
  getList,
  ids,
  MANY_REQUESTS,
  post,
  postStatus,
} from "../timelines/helpers.ts";

describe("list timeline", () => {
  let server: TestServer;
  let owner: TestUser;
  let ann: TestUser;
  let bob: TestUser;
  let cat: TestUser;
  let dan: TestUser;
  let eve: TestUser;
  let muted: TestUser;
  let listId: string;
  /** What the list shows under every policy, and what only some policies show. */
  const always: string[] = [];
  const never = new Map<string, string>();
  let annPost: string;
  let bobPost: string;
  let replyToMember: string;
  let replyToFollowed: string;
  /** Home-timeline ids of the members (hidden when the list is exclusive) and of others. */
  const membersInHome: string[] = [];
  const othersInHome: string[] = [];

  const timeline = () => `/api/v1/timelines/list/${listId}`;
  const say = async (user: TestUser, body: Record<string, unknown> = {}) =>
    (await postStatus(server, user.token, { status: "hi", visibility: "public", ...body })).id;
  const setPolicy = async (replies_policy: string, exclusive = false) => {
    const res = await call(server, "PUT", `/api/v1/lists/${listId}`, owner.token, {
      replies_policy,
      exclusive,
    });
    assert.equal(res.status, 200);
  };
  const listIds = async () => {
    const page = await getList(server, `${timeline()}?limit=40`, owner.token);
    assertNewestFirst(ids(page), "list");
    return ids(page);
  };
  const homeIds = async () =>
    ids(await getList(server, "/api/v1/timelines/home?limit=40", owner.token));

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    [owner, ann, bob, cat, dan, eve, muted] = await createUsers(
      server,
      "owner",
      "ann",
      "bob",
      "cat",
      "dan",
      "eve",
      "muted",
    );
    for (const user of [ann, bob, cat, dan, muted]) await follow(server, owner.token, user.account);
    listId = (await call(server, "POST", "/api/v1/lists", owner.token, { title: "Pals" })).body.id;
    const added = await call(server, "POST", `/api/v1/lists/${listId}/accounts`, owner.token, {
      account_ids: [ann.account.id, bob.account.id, muted.account.id],
    });
    assert.equal(added.status, 200);
    await post(server, owner.token, `/api/v1/accounts/${muted.account.id}/mute`);
    await post(server, owner.token, `/api/v1/accounts/${eve.account.id}/block`);

    const catPost = await say(cat);
    othersInHome.push(catPost);
    never.set(catPost, "by a followed non-member");
    const ownerPost = await say(owner);
    othersInHome.push(ownerPost);
    never.set(ownerPost, "the owner is not a member");
    const eveRoot = await say(eve);
    const [stranger] = await createUsers(server, "stranger");
    const strangerPost = await say(stranger);

    annPost = await say(ann);
    bobPost = await say(bob, { visibility: "unlisted" });
    for (const id of [
      annPost,
      bobPost,
      await say(bob, { visibility: "private" }),
      await say(ann, { in_reply_to_id: ownerPost }),
      await say(ann, { in_reply_to_id: annPost }),
      ((await post(server, ann.token, `/api/v1/statuses/${catPost}/reblog`)) as { id: string }).id,
    ]) {
      always.push(id);
      membersInHome.push(id);
    }

    replyToMember = await say(ann, { in_reply_to_id: bobPost });
    replyToFollowed = await say(bob, { in_reply_to_id: await say(dan) });
    membersInHome.push(replyToMember, replyToFollowed);
    never.set(await say(muted), "a muted member");
    never.set(await say(ann, { status: "psst @dan", visibility: "direct" }), "a direct message");
    never.set(
      await say(bob, { status: "@owner psst", visibility: "direct" }),
      "a direct message to the owner",
    );
    never.set(await say(ann, { in_reply_to_id: eveRoot }), "a reply to a blocked account");
    never.set(await say(bob, { in_reply_to_id: strangerPost }), "a reply to a stranger");
  });
  after(() => server.close());

  it("shows the members' posts and boosts, replies to members with the default policy", async () => {
    const shown = await listIds();
    for (const id of always) assert.ok(shown.includes(id), `missing ${id}`);
    assert.ok(shown.includes(replyToMember), "a reply to a member");
    assert.ok(!shown.includes(replyToFollowed), "a reply to a followed non-member");
    for (const [id, why] of never) assert.ok(!shown.includes(id), why);
  });

  it("follows replies_policy: followed, list and none", async () => {
    await setPolicy("followed");
    let shown = await listIds();
    for (const id of [...always, replyToMember, replyToFollowed]) assert.ok(shown.includes(id), id);
    for (const [id, why] of never) assert.ok(!shown.includes(id), why);

    await setPolicy("none");
    shown = await listIds();
    for (const id of always) assert.ok(shown.includes(id), id);
    assert.ok(!shown.includes(replyToMember), "none: a reply to a member");
    assert.ok(!shown.includes(replyToFollowed), "none: a reply to a followed account");

    await setPolicy("list");
    shown = await listIds();
    assert.ok(shown.includes(replyToMember));
    assert.ok(!shown.includes(replyToFollowed));
  });

  it("pages through Link headers and honours max_id, since_id and min_id", async () => {
    const all = await listIds();
    assert.ok(all.length >= 6);
    const walked: string[] = [];
    let next: string | null = `${timeline()}?limit=2`;
    while (next) {
      const page = await getList(server, next, owner.token);
      if (page.body.length === 0) break;
      walked.push(...ids(page));
      next = page.next;
    }
    assert.deepEqual(walked, all);

    const [newest, second, third] = all as [string, string, string];
    const older = await getList(server, `${timeline()}?max_id=${second}`, owner.token);
    assert.deepEqual(ids(older), all.slice(2));
    const since = await getList(server, `${timeline()}?since_id=${third}&limit=1`, owner.token);
    assert.deepEqual(ids(since), [newest]);
    const min = await getList(server, `${timeline()}?min_id=${third}&limit=1`, owner.token);
    assert.deepEqual(ids(min), [second]);
    const prev = await getList(server, older.prev as string, owner.token);
    assert.deepEqual(ids(prev), [newest, second]);

    const bad = await call(server, "GET", `${timeline()}?max_id=abc`, owner.token);
    assert.equal(bad.status, 422);
    assert.equal(typeof bad.body.error, "string");
  });

  it("answers an empty page for a list without members", async () => {
    const empty = (await call(server, "POST", "/api/v1/lists", owner.token, { title: "Empty" }))
      .body;
    const page = await getList(server, `/api/v1/timelines/list/${empty.id}`, owner.token);
    assert.deepEqual(page.body, []);
    assert.equal(page.next, null);
  });

  it("takes an exclusive list's members out of home, and puts them back", async () => {
    let home = await homeIds();
    for (const id of [...membersInHome, ...othersInHome])
      assert.ok(home.includes(id), `home ${id}`);

    await setPolicy("list", true);
    home = await homeIds();
    for (const id of membersInHome) assert.ok(!home.includes(id), `exclusive: ${id} left home`);
    for (const id of othersInHome) assert.ok(home.includes(id), `exclusive: ${id} stays`);
    const shown = await listIds();
    for (const id of always) assert.ok(shown.includes(id), `exclusive list still shows ${id}`);

    // A member removed from the exclusive list comes back to home.
    await call(server, "DELETE", `/api/v1/lists/${listId}/accounts`, owner.token, {
      account_ids: [bob.account.id],
    });
    home = await homeIds();
    assert.ok(home.includes(bobPost), "bob is back in home");
    assert.ok(!home.includes(annPost), "ann is still only in the list");

    await setPolicy("list", false);
    home = await homeIds();
    for (const id of membersInHome) assert.ok(home.includes(id), `not exclusive: ${id} back`);
  });
});
