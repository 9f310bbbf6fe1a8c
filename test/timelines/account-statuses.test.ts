// GET /api/v1/accounts/:id/statuses: pinned, only_media, exclude_replies (an author's replies
// to themselves stay), exclude_reblogs, tagged, boosts of accounts the viewer shut out, an
// author who blocks the viewer (an empty list, as Mastodon answers), unknown accounts (404).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { getList, ids, MANY_REQUESTS, post, postStatus, putStatus } from "./helpers.ts";

describe("account statuses", () => {
  let server: TestServer;
  let pat: TestUser;
  let quinn: TestUser;
  let viewer: TestUser;
  let blocked: TestUser;
  const s = {} as Record<
    "first" | "cats" | "selfReply" | "replyToOther" | "boost" | "boostOfBlocked" | "media" | "last",
    string
  >;
  const path = () => `/api/v1/accounts/${pat.account.id}/statuses`;

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    [pat, quinn, viewer, blocked] = await createUsers(server, "pat", "quinn", "vic", "bo");
    const quinnPost = await postStatus(server, quinn.token, { status: "quinn's post" });
    await post(server, viewer.token, `/api/v1/accounts/${quinn.account.id}/block`);
    await post(server, pat.token, `/api/v1/accounts/${blocked.account.id}/block`);

    s.first = (await postStatus(server, pat.token, { status: "first" })).id;
    s.cats = (await postStatus(server, pat.token, { status: "I like #Cats" })).id;
    s.selfReply = (
      await postStatus(server, pat.token, { status: "more", in_reply_to_id: s.first })
    ).id;
    s.replyToOther = (
      await postStatus(server, pat.token, { status: "@quinn hi", in_reply_to_id: quinnPost.id })
    ).id;
    s.boost = (
      (await post(server, pat.token, `/api/v1/statuses/${s.first}/reblog`)) as { id: string }
    ).id;
    s.boostOfBlocked = (
      (await post(server, pat.token, `/api/v1/statuses/${quinnPost.id}/reblog`)) as { id: string }
    ).id;
    // Attachments come with the media work; a stored status with a media id stands in for one.
    s.media = (await putStatus(server, pat.account, { mediaIds: ["1"], text: "a photo" })).id;
    s.last = (await postStatus(server, pat.token, { status: "last" })).id;
  });

  after(() => server.close());

  it("lists everything newest first for an anonymous reader", async () => {
    const page = await getList(server, path());
    assert.deepEqual(ids(page), [
      s.last,
      s.media,
      s.boostOfBlocked,
      s.boost,
      s.replyToOther,
      s.selfReply,
      s.cats,
      s.first,
    ]);
    const boost = page.body.find((x) => x.id === s.boost);
    assert.equal(boost?.reblog?.id, s.first);
  });

  it("leaves out boosts of accounts the viewer blocks", async () => {
    const page = await getList(server, path(), viewer.token);
    assert.ok(!ids(page).includes(s.boostOfBlocked));
    assert.ok(ids(page).includes(s.boost));
  });

  it("exclude_replies keeps an author's replies to themselves", async () => {
    const page = await getList(server, `${path()}?exclude_replies=true`);
    assert.ok(ids(page).includes(s.selfReply));
    assert.ok(!ids(page).includes(s.replyToOther));
  });

  it("exclude_reblogs, only_media and tagged", async () => {
    const noBoosts = ids(await getList(server, `${path()}?exclude_reblogs=1`));
    assert.deepEqual(noBoosts, [s.last, s.media, s.replyToOther, s.selfReply, s.cats, s.first]);
    assert.deepEqual(ids(await getList(server, `${path()}?only_media=true`)), [s.media]);
    assert.deepEqual(ids(await getList(server, `${path()}?tagged=cats`)), [s.cats]);
    assert.deepEqual(ids(await getList(server, `${path()}?tagged=CATS`)), [s.cats]);
    assert.deepEqual(ids(await getList(server, `${path()}?tagged=dogs`)), []);
    // An empty `tagged` filters nothing (Mastodon checks for presence).
    assert.equal(ids(await getList(server, `${path()}?tagged=`)).length, 8);
  });

  it("pinned=true lists the pinned statuses, newest pin first", async () => {
    assert.deepEqual(ids(await getList(server, `${path()}?pinned=true`)), []);
    for (const id of [s.first, s.last, s.cats]) {
      await post(server, pat.token, `/api/v1/statuses/${id}/pin`);
    }
    const page = await getList(server, `${path()}?pinned=true`);
    assert.deepEqual(ids(page), [s.cats, s.last, s.first]);
    const asAuthor = await getList(server, `${path()}?pinned=true`, pat.token);
    assert.deepEqual(
      asAuthor.body.map((x) => x.pinned),
      [true, true, true],
    );
    // Other switches still apply to the pinned ones.
    assert.deepEqual(ids(await getList(server, `${path()}?pinned=true&tagged=cats`)), [s.cats]);
    assert.deepEqual(ids(await getList(server, `${path()}?pinned=true&limit=1`)), [s.cats]);
    await post(server, pat.token, `/api/v1/statuses/${s.last}/unpin`);
    assert.deepEqual(ids(await getList(server, `${path()}?pinned=1`)), [s.cats, s.first]);
  });

  it("answers an empty list to a viewer the author blocks", async () => {
    const page = await getList(server, path(), blocked.token);
    assert.deepEqual(page.body, []);
    assert.equal(page.next, null);
  });

  it("answers 404 for an unknown account", async () => {
    for (const id of ["999999999999", "nope"]) {
      const res = await server.request(`/api/v1/accounts/${id}/statuses`);
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), { error: "Record not found" });
    }
  });

  it("rejects malformed paging and switches with 422", async () => {
    for (const query of ["max_id=abc", "limit=lots", "pinned=maybe"]) {
      const res = await server.request(`${path()}?${query}`);
      assert.equal(res.status, 422, query);
      const body = (await res.json()) as { error: string };
      assert.match(body.error, /^Validation failed/);
    }
  });
});
