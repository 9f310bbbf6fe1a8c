// Three servers: a boost carries a post to a server that never heard of its author. Carol (C)
// follows alice (A); alice boosts bob's post (B); carol's server fetches the post from B and
// shows alice's boost of it in carol's home timeline.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  type Instance,
  inHomeTimeline,
  startFederation,
  type TestFederation,
  user,
} from "../../helpers/federation.ts";

describe("a boost across three servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let c: Instance;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  before(async () => {
    federation = await startFederation(3);
    [a, b, c] = federation.instances as [Instance, Instance, Instance];
    alice = await user(a, "alice");
    bob = await user(b, "bob");
    carol = await user(c, "carol");
    await followRemote(a, alice, b, bob);
    await followRemote(c, carol, a, alice);
  });
  after(() => federation.close());

  it("brings the boosted post from its own server to the booster's followers", async () => {
    const posted = await api(b, bob.token, "POST", "/api/v1/statuses", { status: "Pass it on" });
    const onA = await eventually(() => inHomeTimeline(a, alice.token, posted.uri));
    const boost = await api(a, alice.token, "POST", `/api/v1/statuses/${onA.id}/reblog`);

    const onC = await eventually(() => inHomeTimeline(c, carol.token, boost.uri));
    assert.equal(onC.account.acct, `alice@${a.domain}`);
    assert.equal(onC.reblog?.uri, posted.uri);
    assert.equal(onC.reblog.account.acct, `bob@${b.domain}`);
    assert.match(onC.reblog.content, /Pass it on/);
    // B counts the boost, though C's carol never talked to B.
    await eventually(async () => {
      const origin = await api(b, bob.token, "GET", `/api/v1/statuses/${posted.id}`);
      assert.equal(origin.reblogs_count, 1);
    });
  });
});
