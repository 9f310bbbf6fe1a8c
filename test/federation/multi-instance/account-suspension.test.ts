// A moderator of A suspends alice, whom bob on B follows: B learns it from A's Update of her
// actor, flagged `suspended` (as from a Mastodon server), and shows her suspended, her posts
// hidden; B stops hearing from her but for her own actor. Lifting the suspension on A sends
// her actor again and B shows her as before. Deleting her data on A deletes her on B for good.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  actOnAccount,
  deleteAccountData,
  OPERATOR,
  undoAction,
} from "../../../src/services/accounts/moderate-account.ts";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  type Instance,
  inHomeTimeline,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";

describe("a local suspension seen from another server", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
  });
  after(() => federation.close());

  it("is shown suspended on the follower's server, lifted with it, and ends with the data", async () => {
    const aliceOnB = await followRemote(b, bob, a, alice);
    const post = await api(a, alice.token, "POST", "/api/v1/statuses", { status: "Before" });
    const postOnB = await eventually(() => inHomeTimeline(b, bob.token, post.uri));

    await actOnAccount(a.wren.ctx, OPERATOR, alice.account.id, { type: "suspend" });
    await eventually(async () => {
      const shown = await api(b, bob.token, "GET", `/api/v1/accounts/${aliceOnB.id}`);
      assert.equal(shown.suspended, true);
    });
    const stored = await b.wren.ctx.storage.accounts.get(aliceOnB.id);
    assert.equal(stored?.suspendedByItsServer, true);
    const hidden = await b.request(`/api/v1/statuses/${postOnB.id}`, { token: bob.token });
    assert.equal(hidden.status, 404);
    await hidden.body?.cancel();
    // The follow is kept (Mastodon keeps it for a suspension its server may lift).
    assert.ok(await b.wren.ctx.storage.follows.get(bob.account.id, aliceOnB.id));

    await undoAction(a.wren.ctx, OPERATOR, alice.account.id, "unsuspend");
    await eventually(async () => {
      const shown = await api(b, bob.token, "GET", `/api/v1/accounts/${aliceOnB.id}`);
      assert.equal(shown.suspended, undefined);
      assert.equal(shown.display_name, aliceOnB.display_name);
    });
    const back = await api(b, bob.token, "GET", `/api/v1/statuses/${postOnB.id}`);
    assert.equal(back.id, postOnB.id);

    await actOnAccount(a.wren.ctx, OPERATOR, alice.account.id, { type: "suspend" });
    await eventually(async () => {
      assert.equal((await b.wren.ctx.storage.accounts.get(aliceOnB.id))?.suspended, true);
    });
    await deleteAccountData(a.wren.ctx, OPERATOR, alice.account.id);
    await eventually(async () => {
      const gone = await b.wren.ctx.storage.accounts.get(aliceOnB.id);
      assert.equal(gone?.suspended, true);
      assert.equal(gone?.suspendedByItsServer, undefined, "deleted for good");
      // Its follows end after the record is marked (remote-delete-actor.ts).
      assert.equal(await b.wren.ctx.storage.follows.get(bob.account.id, aliceOnB.id), undefined);
    });
  });
});
