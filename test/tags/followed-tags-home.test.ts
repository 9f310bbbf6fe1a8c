// Followed hashtags in the home timeline (Mastodon's FeedManager for tag followers): public
// posts carrying a followed tag appear, from anyone, replies included; unlisted, private and
// direct ones do not, nor posts from or mentioning accounts the viewer blocks or mutes, nor
// posts of accounts that block the viewer. Unfollowing the tag takes them out again (home is
// computed on read), and paging walks the merged timeline in order.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, ok, post } from "./helpers.ts";

describe("followed hashtags in home", () => {
  let server: TestServer;
  let hana: TestUser;
  let ann: TestUser;
  let ben: TestUser;
  let zed: TestUser;
  let xia: TestUser;
  let wes: TestUser;
  before(async () => {
    server = await startTestServer();
    hana = await createUserWithToken(server, "hana");
    ann = await createUserWithToken(server, "ann");
    ben = await createUserWithToken(server, "ben");
    zed = await createUserWithToken(server, "zed");
    xia = await createUserWithToken(server, "xia");
    wes = await createUserWithToken(server, "wes");
    await ok(server, "POST", `/api/v1/accounts/${ann.account.id}/follow`, hana);
    await ok(server, "POST", `/api/v1/accounts/${zed.account.id}/block`, hana);
    await ok(server, "POST", `/api/v1/accounts/${xia.account.id}/mute`, hana);
    await ok(server, "POST", `/api/v1/accounts/${hana.account.id}/block`, wes);
    await ok(server, "POST", "/api/v1/tags/Gardening/follow", hana);
  });
  after(() => server.close());

  const home = async (query = "") =>
    (await ok(server, "GET", `/api/v1/timelines/home${query}`, hana)) as Json[];
  const idsOf = (list: Json[]) => list.map((s) => s.id);

  it("shows public posts with the tag from accounts hana does not follow, by the filter rules", async () => {
    const shown: string[] = [];
    const hidden = new Map<string, string>();
    const say = async (who: TestUser, text: string, visibility = "public") =>
      (await post(server, who, text, visibility)).id as string;

    shown.push(await say(ben, "#gardening is nice"));
    shown.push(await say(ben, "in any case: #GARDENING"));
    const parent = await say(ann, "a question");
    // A reply to someone hana does not follow: kept through the tag (not by ann's reply rule).
    shown.push(
      (
        await ok(server, "POST", "/api/v1/statuses", ben, {
          status: "#gardening answer",
          in_reply_to_id: parent,
        })
      ).id,
    );
    shown.push(parent);
    hidden.set(await say(ben, "unlisted #gardening", "unlisted"), "unlisted");
    hidden.set(await say(ben, "private #gardening", "private"), "private");
    hidden.set(await say(ben, "other tag #cooking"), "tag not followed");
    hidden.set(await say(zed, "#gardening from a blocked account"), "blocked author");
    hidden.set(await say(xia, "#gardening from a muted account"), "muted author");
    hidden.set(await say(wes, "#gardening from an account blocking hana"), "blocked by author");
    hidden.set(await say(ben, "@zed #gardening mentions a blocked account"), "mentions blocked");
    // A boost of a tagged post by someone hana does not follow is not the post itself.
    const boosted = await ok(server, "POST", `/api/v1/statuses/${shown[0]}/reblog`, zed);
    hidden.set(boosted.id, "a boost");

    const list = await home("?limit=40");
    const got = idsOf(list);
    for (const id of shown) assert.ok(got.includes(id), `missing ${id}`);
    for (const [id, why] of hidden) assert.ok(!got.includes(id), `${why} shown`);
    // Newest first, each status once.
    assert.deepEqual(
      got,
      [...got].sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : -1)),
    );
    assert.equal(new Set(got).size, got.length);
  });

  it("pages through the merged timeline without gaps or repeats", async () => {
    const all = idsOf(await home("?limit=40"));
    const walked: string[] = [];
    let query = "?limit=2";
    for (let i = 0; i < 20; i++) {
      const page = await call(server, "GET", `/api/v1/timelines/home${query}`, hana);
      walked.push(...idsOf(page.body));
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")?.[1];
      if (!next || page.body.length === 0) break;
      query = new URL(next).search;
    }
    assert.deepEqual(walked, all);
    // min_id: the oldest after the given id, still newest first.
    const oldest = all[all.length - 1];
    const above = idsOf(await home(`?min_id=${oldest}&limit=2`));
    assert.deepEqual(above, all.slice(-3, -1));
  });

  it("drops the tag's posts again after unfollowing", async () => {
    const id = (await post(server, ben, "#gardening late")).id;
    assert.ok(idsOf(await home()).includes(id));
    await ok(server, "POST", "/api/v1/tags/gardening/unfollow", hana);
    const after = idsOf(await home("?limit=40"));
    assert.ok(!after.includes(id));
    assert.ok(after.every((s) => s !== id));
    // Followed accounts still show.
    const own = (await post(server, ann, "still here")).id;
    assert.ok(idsOf(await home()).includes(own));
  });
});
