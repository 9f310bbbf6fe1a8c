// Acting on a boost by the boost's id acts on its original (Mastodon's `status.proper`), and the
// answer is the boost whose flags, at the top level and inside `reblog`, are the original's: an app
// that favourites the timeline item it was shown reads that item back favourited.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { actOk, assertFlags, type Cast, createCast, getList, makeStatus, view } from "./helpers.ts";

describe("acting on a boost by the boost's id", () => {
  let server: TestServer;
  let cast: Cast;
  before(async () => {
    server = await startTestServer();
    cast = await createCast(server);
  });
  after(() => server.close());

  it("favourites, bookmarks and boosts the original and answers the boost flagged", async () => {
    const { alice, bob, carol } = cast;
    const post = await makeStatus(server, alice);
    const boost = await actOk(server, carol, post.id, "reblog");

    for (const [action, flag] of [
      ["favourite", "favourited"],
      ["bookmark", "bookmarked"],
    ] as const) {
      const answer = await actOk(server, bob, boost.id, action);
      assert.equal(answer.id, boost.id, action);
      assert.equal(answer.reblog.id, post.id, action);
      assertFlags(answer, { [flag]: true }, `${action} top level`);
      assertFlags(answer.reblog, { [flag]: true }, `${action} reblog`);
    }
    // Read back: the boost and the original say the same, on their own and in a timeline.
    const again = await view(server, bob, boost.id);
    assertFlags(again, { favourited: true, bookmarked: true, reblogged: false });
    assertFlags(again.reblog, { favourited: true, bookmarked: true, reblogged: false });
    assertFlags(await view(server, bob, post.id), { favourited: true, bookmarked: true });
    const { body: carolsStatuses } = await getList(
      server,
      bob,
      `/api/v1/accounts/${carol.account.id}/statuses`,
    );
    const listed = carolsStatuses.find((s) => s.id === boost.id);
    assertFlags(listed, { favourited: true, bookmarked: true });
    // The one who boosted sees their boost as reblogged; others who did not, not.
    assertFlags(await view(server, carol, boost.id), { reblogged: true, favourited: false });

    // Boosting the boost boosts the original: the answer is bob's boost of it, flagged reblogged.
    const bobsBoost = await actOk(server, bob, boost.id, "reblog");
    assert.notEqual(bobsBoost.id, boost.id);
    assert.equal(bobsBoost.reblog.id, post.id);
    assertFlags(bobsBoost, { reblogged: true, favourited: true });
    assertFlags(await view(server, bob, boost.id), { reblogged: true });

    // Undoing through the boost undoes on the original, and the answer shows it undone.
    for (const [action, flag] of [
      ["unfavourite", "favourited"],
      ["unbookmark", "bookmarked"],
    ] as const) {
      const answer = await actOk(server, bob, boost.id, action);
      assert.equal(answer.id, boost.id, action);
      assertFlags(answer, { [flag]: false }, `${action} top level`);
      assertFlags(answer.reblog, { [flag]: false }, `${action} reblog`);
    }
    assertFlags(await view(server, bob, post.id), { favourited: false, bookmarked: false });
  });

  it("mutes the original's conversation, flagged on the boost and inside it", async () => {
    const { alice, bob, carol } = cast;
    const post = await makeStatus(server, alice);
    const boost = await actOk(server, carol, post.id, "reblog");
    const muted = await actOk(server, bob, boost.id, "mute");
    assertFlags(muted, { muted: true });
    assertFlags(muted.reblog, { muted: true });
    assertFlags(await view(server, bob, post.id), { muted: true });
    const unmuted = await actOk(server, bob, boost.id, "unmute");
    assertFlags(unmuted, { muted: false });
    assertFlags(unmuted.reblog, { muted: false });
  });
});
