// A story of server moderation across two real instances: alice (A) and bob (B) follow each
// other and bob has posted; A's admin suspends B's domain through the admin API. A ends both
// follows at once, purges what it stored of B (bob's account is suspended, his post gone), and
// refuses what B sends next. Lifting the block brings bob's account back.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isDomainBlocked } from "../../../src/services/domain-blocks/domain-blocks.ts";
import { createUserWithToken, type TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  type Instance,
  inHomeTimeline,
  queuedDeliveries,
  relationship,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";

describe("suspending a server through the admin API", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
    admin = await createUserWithToken(a, "boss", ["read", "admin:read", "admin:write"], {
      role: "admin",
    });
  });
  after(() => federation.close());

  it("severs the follows, purges the server's content and refuses its next activity", async () => {
    const bobOnA = await followRemote(a, alice, b, bob);
    await followRemote(b, bob, a, alice);
    const first = await api(b, bob.token, "POST", "/api/v1/statuses", { status: "Hello A" });
    const firstOnA = await eventually(() => inHomeTimeline(a, alice.token, first.uri));

    const block = await api(a, admin.token, "POST", "/api/v1/admin/domain_blocks", {
      domain: b.domain,
      severity: "suspend",
      public_comment: "Testing",
    });
    assert.equal(block.severity, "suspend");

    // The follows end at once, both ways.
    const rel = await relationship(a, alice.token, bobOnA.id);
    assert.equal(rel.following, false);
    assert.equal(rel.followed_by, false);

    // The purge job suspends bob here and removes his post.
    await eventually(async () => {
      const stored = await a.wren.ctx.storage.accounts.get(bobOnA.id);
      assert.equal(stored?.suspended, true);
      const status = await a.wren.ctx.storage.statuses.get(firstOnA.id);
      assert.ok(!status || status.deleted, "bob's post is purged");
    });
    const statuses = await a.request(`/api/v1/accounts/${bobOnA.id}/statuses`, {
      token: alice.token,
    });
    assert.ok(statuses.status === 404 || ((await statuses.json()) as unknown[]).length === 0);

    // B still counts alice as a follower of bob and delivers bob's next post, which mentions her
    // (a mention is taken from anyone not blocked): A refuses it.
    assert.equal(await isDomainBlocked(a.wren.ctx, b.domain), true);
    const second = await api(b, bob.token, "POST", "/api/v1/statuses", {
      status: `@alice@${a.domain} Still here?`,
    });
    await eventually(async () => {
      const waiting = (await queuedDeliveries(b)).filter((d) => d.inbox.host === a.domain);
      assert.deepEqual(waiting, []);
    });
    assert.equal(await a.wren.ctx.storage.statuses.findByUri(second.uri), undefined);
    const search = await api(
      a,
      alice.token,
      "GET",
      `/api/v2/search?q=${encodeURIComponent(second.uri)}&resolve=true`,
    );
    assert.deepEqual(search.statuses, []);
    const mentions = await api(a, alice.token, "GET", "/api/v1/notifications?types[]=mention");
    assert.deepEqual(mentions, []);

    // Lifting the block ends the suspension it made (not the purge).
    await api(a, admin.token, "DELETE", `/api/v1/admin/domain_blocks/${block.id}`);
    const lifted = await a.wren.ctx.storage.accounts.get(bobOnA.id);
    assert.equal(lifted?.suspended, undefined);
    assert.equal(lifted?.suspendedByDomainBlock, undefined);
  });
});
