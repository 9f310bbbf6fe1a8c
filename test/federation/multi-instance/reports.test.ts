// A report forwarded across servers: alice (A) reports bob (B) and one of his posts with
// forward=true; B stores it as a report about its own account, from A's instance actor (never
// from alice), with the post and the comment. A report not forwarded stays on A.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  handle,
  type Instance,
  resolveAccount,
  resolveStatus,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";

describe("reports across servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
  });
  after(() => federation.close());

  it("stores a forwarded report on the reported account's server", async () => {
    const post = await api(b, bob.token, "POST", "/api/v1/statuses", { status: "buy now" });
    const bobOnA = await resolveAccount(a, alice.token, handle(b, "bob"));
    const postOnA = await resolveStatus(a, alice.token, post.uri);

    const kept = await api(a, alice.token, "POST", "/api/v1/reports", {
      account_id: bobOnA.id,
      comment: "kept here",
    });
    assert.equal(kept.forwarded, false);
    const forwarded = await api(a, alice.token, "POST", "/api/v1/reports", {
      account_id: bobOnA.id,
      status_ids: [postOnA.id],
      comment: "Spam account",
      category: "spam",
      forward: true,
    });
    assert.equal(forwarded.forwarded, true);

    const report = await eventually(async () => {
      const [found] = await b.wren.ctx.storage.reports.list({ limit: 10 });
      assert.ok(found, "no report on B yet");
      return found;
    });
    assert.equal(report.targetAccountId, bob.account.id);
    assert.deepEqual(report.statusIds, [post.id]);
    assert.equal(report.comment, "Spam account");
    assert.equal(report.actionTakenAt, null);
    const reporter = await b.wren.ctx.storage.accounts.get(report.accountId);
    assert.equal(reporter?.uri, `${a.url}/users/${encodeURIComponent(a.domain)}`);
    assert.equal(
      await b.wren.ctx.storage.accounts.findByUri(`${a.url}/users/alice`),
      undefined,
      "alice stays unknown to B",
    );
    // The Flag's id, so a redelivery is stored once; and the report kept on A never came.
    assert.ok(report.uri?.startsWith(`${a.url}/users/`));
    assert.equal((await b.wren.ctx.storage.reports.list({ limit: 10 })).length, 1);
  });
});
