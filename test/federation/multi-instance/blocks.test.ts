// A block across servers ends the follows both ways: bob (B) blocks alice (A) while they follow
// each other; both servers drop both follows.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  type Instance,
  relationship,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";

describe("blocks across servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
  });
  after(() => federation.close());

  it("ends the follows both ways on both servers", async () => {
    const bobOnA = await followRemote(a, alice, b, bob);
    const aliceOnB = await followRemote(b, bob, a, alice);
    await eventually(async () => {
      assert.equal((await relationship(a, alice.token, bobOnA.id)).followed_by, true);
      assert.equal((await relationship(b, bob.token, aliceOnB.id)).followed_by, true);
    });

    const blocked = await api(b, bob.token, "POST", `/api/v1/accounts/${aliceOnB.id}/block`);
    assert.equal(blocked.blocking, true);
    assert.equal(blocked.following, false);
    assert.equal(blocked.followed_by, false);

    // Alice's server hears of the block and drops both follows too.
    await eventually(async () => {
      const rel = await relationship(a, alice.token, bobOnA.id);
      assert.equal(rel.following, false);
      assert.equal(rel.followed_by, false);
    });
    const following = await api(
      a,
      alice.token,
      "GET",
      `/api/v1/accounts/${alice.account.id}/following`,
    );
    assert.deepEqual(following, []);
    const followers = await api(
      a,
      alice.token,
      "GET",
      `/api/v1/accounts/${alice.account.id}/followers`,
    );
    assert.deepEqual(followers, []);
  });
});
