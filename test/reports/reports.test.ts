// POST /api/v1/reports: a user reports an account and some of its statuses to the moderators,
// with Mastodon's rules for categories, cited rules, statuses and comments, and forwarding to the
// reported account's server (a Flag from the instance actor, queued for delivery).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import { type RecordingPeer, startRecordingPeer } from "../federation/recording-peer.ts";
import { call, type Json } from "../graph/helpers.ts";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { eventually } from "../helpers/federation.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { postStatus, putStatus } from "../timelines/helpers.ts";

const REPORTS = "/api/v1/reports";

describe("POST /api/v1/reports", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let remote: Account;
  let other: Account;
  let targetPeer: RecordingPeer;
  let otherPeer: RecordingPeer;

  before(async () => {
    server = await startTestServer({
      WREN_RULES: "Be kind\nNo spam\nNo ads",
      WREN_ALLOW_PRIVATE_ADDRESSES: "true",
    });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
    targetPeer = await startRecordingPeer();
    otherPeer = await startRecordingPeer();
    remote = await targetPeer.addAccount(server, "rita");
    other = await otherPeer.addAccount(server, "otto");
  });
  after(async () => {
    await server.close();
    await targetPeer.close();
    await otherPeer.close();
  });

  async function report(user: TestUser, body: Record<string, unknown>, status = 200) {
    const res = await call(server, "POST", REPORTS, user.token, body);
    assert.equal(res.status, status, JSON.stringify(res.body));
    assertMatchesResponse("POST", REPORTS, status, res.body);
    return res.body as Json;
  }

  it("files a report with statuses, comment and category, as the Report entity", async () => {
    const first = await postStatus(server, bob.token, { status: "buy now" });
    const second = await postStatus(server, bob.token, { status: "buy again" });
    const body = await report(alice, {
      account_id: bob.account.id,
      status_ids: [first.id, second.id],
      comment: "Spam account",
      category: "spam",
    });
    assert.equal(body.target_account.id, bob.account.id);
    assert.equal(body.target_account.acct, "bob");
    assert.deepEqual(body.status_ids, [first.id, second.id]);
    assert.equal(body.comment, "Spam account");
    assert.equal(body.category, "spam");
    assert.equal(body.forwarded, false);
    assert.equal(body.action_taken, false);
    assert.equal(body.action_taken_at, null);
    assert.equal(body.rule_ids, null);
    const stored = await server.wren.ctx.storage.reports.get(body.id);
    assert.equal(stored?.accountId, alice.account.id);
    assert.equal(stored?.targetAccountId, bob.account.id);
    assert.equal(stored?.createdAt, body.created_at);
  });

  it("defaults to `other` with no statuses and no comment", async () => {
    const body = await report(alice, { account_id: bob.account.id });
    assert.equal(body.category, "other");
    assert.equal(body.status_ids, null);
    assert.equal(body.comment, "");
  });

  it("takes form parameters: lists with [], booleans and rule ids as strings", async () => {
    const status = await postStatus(server, bob.token, { status: "rude" });
    const res = await server.request(REPORTS, {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([
        ["account_id", bob.account.id],
        ["status_ids[]", status.id],
        ["rule_ids[]", "1"],
        ["rule_ids[]", "3"],
        ["forward", "true"],
      ]).toString(),
    });
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("POST", REPORTS, 200, body);
    // Cited rules make a violation; a local account is never forwarded anywhere.
    assert.equal(body.category, "violation");
    assert.deepEqual(body.rule_ids, ["1", "3"]);
    assert.deepEqual(body.status_ids, [status.id]);
    assert.equal(body.forwarded, false);
  });

  it("makes any category a violation when rules are cited, and refuses unknown rules", async () => {
    const cited = await report(alice, {
      account_id: bob.account.id,
      category: "spam",
      rule_ids: [2],
    });
    assert.equal(cited.category, "violation");
    assert.deepEqual(cited.rule_ids, ["2"]);
    for (const body of [
      { category: "violation" },
      { category: "violation", rule_ids: [] },
      { rule_ids: [4] },
      { rule_ids: [0] },
      { rule_ids: ["1", "x"] },
    ]) {
      const refused = await report(alice, { account_id: bob.account.id, ...body }, 422);
      assert.equal(refused.error, "Validation failed: Rule ids does not reference valid rules");
    }
  });

  it("answers 422 for a bad category, a long comment or a missing account", async () => {
    const badCategory = await report(alice, { account_id: bob.account.id, category: "rude" }, 422);
    assert.match(badCategory.error, /^Validation failed: Category/);
    const long = await report(
      alice,
      { account_id: bob.account.id, comment: "é".repeat(1001) },
      422,
    );
    assert.equal(long.error, "Validation failed: Comment is too long (maximum is 1000 characters)");
    const longest = await report(alice, { account_id: bob.account.id, comment: "é".repeat(1000) });
    assert.equal([...longest.comment].length, 1000);
    assert.match((await report(alice, {}, 422)).error, /account_id/);
    assert.match((await report(alice, { account_id: "abc" }, 422)).error, /account_id/);
    assert.match(
      (await report(alice, { account_id: bob.account.id, forward: "maybe" }, 422)).error,
      /forward/,
    );
  });

  it("answers 404 for an unknown account, or statuses not the target's or not visible", async () => {
    const count = async () => (await server.wren.ctx.storage.reports.list({ limit: 100 })).length;
    const before = await count();
    const notFound = { error: "Record not found" };
    assert.deepEqual(await report(alice, { account_id: "999999999" }, 404), notFound);
    const alicesOwn = await postStatus(server, alice.token, { status: "mine" });
    assert.deepEqual(
      await report(alice, { account_id: bob.account.id, status_ids: [alicesOwn.id] }, 404),
      notFound,
    );
    assert.deepEqual(
      await report(alice, { account_id: bob.account.id, status_ids: ["999999999"] }, 404),
      notFound,
    );
    // Followers-only, and alice does not follow bob.
    const hidden = await postStatus(server, bob.token, { status: "secret", visibility: "private" });
    assert.deepEqual(
      await report(alice, { account_id: bob.account.id, status_ids: [hidden.id] }, 404),
      notFound,
    );
    assert.equal(await count(), before, "a refused report is not stored");
  });

  it("needs a user token with write:reports", async () => {
    const expect = async (token: string | undefined, status: number, error: RegExp) => {
      const res = await call(server, "POST", REPORTS, token, { account_id: bob.account.id });
      assert.equal(res.status, status, JSON.stringify(res.body));
      assertMatchesResponse("POST", REPORTS, status, res.body);
      assert.match(res.body.error, error);
    };
    await expect(undefined, 401, /token/i);
    const reader = await createUserWithToken(server, "reader", ["read"]);
    await expect(reader.token, 403, /outside the authorized scopes/);
    const narrow = await createUserWithToken(server, "narrow", ["write:reports"]);
    await report(narrow, { account_id: bob.account.id });
    const { token } = await createAppToken(server, ["write"]);
    await expect(token, 422, /requires an authenticated user/);
  });

  it("forwards a report about a remote account to its server as a Flag, on request", async () => {
    const mentioned = remoteAccountRecord(server, "mia", "mentioned.example");
    await server.wren.ctx.storage.accounts.put(mentioned);
    const reply = await putStatus(server, remote, {
      text: "spam",
      inReplyToAccountId: other.id,
      mentionIds: [other.id, mentioned.id],
    });
    const kept = await report(alice, { account_id: remote.id, status_ids: [reply.id] });
    assert.equal(kept.forwarded, false);
    const body = await report(alice, {
      account_id: remote.id,
      status_ids: [reply.id],
      comment: "forward me",
      forward: true,
      // Only the target's server and those of accounts the statuses reply to are taken.
      forward_to_domains: [
        targetPeer.host,
        otherPeer.host.toUpperCase(),
        "mentioned.example",
        "unrelated.example",
      ],
    });
    assert.equal(body.forwarded, true);
    const stored = await server.wren.ctx.storage.reports.get(body.id);
    assert.deepEqual(stored?.forwardedToDomains, [otherPeer.host]);
    const instanceActor = `${server.url}/users/${encodeURIComponent(new URL(server.url).host)}`;
    const flags = (peer: RecordingPeer) =>
      peer.deliveries.filter((d) => d.activity.type === "Flag");
    for (const peer of [targetPeer, otherPeer]) {
      const [delivery] = await eventually(() => {
        const found = flags(peer);
        assert.equal(found.length, 1, `one Flag reaches ${peer.host}`);
        return found;
      });
      // Signed by the instance actor, never by the reporter.
      assert.equal(delivery?.owner, instanceActor);
      assert.equal(delivery?.activity.actor, instanceActor);
      assert.deepEqual(delivery?.activity.object, [remote.uri, reply.uri]);
      assert.equal(delivery?.activity.content, "forward me");
    }

    // Without a list: the target's server alone.
    const origin = await report(alice, { account_id: remote.id, forward: "1" });
    assert.equal(origin.forwarded, true);
    assert.deepEqual(
      (await server.wren.ctx.storage.reports.get(origin.id))?.forwardedToDomains,
      [],
    );
    await eventually(() => assert.equal(flags(targetPeer).length, 2));
    // A list without the target's server: not forwarded there, only to the server replied to.
    const elsewhere = await report(alice, {
      account_id: remote.id,
      status_ids: [reply.id],
      forward: true,
      forward_to_domains: [otherPeer.host],
    });
    assert.equal(elsewhere.forwarded, false);
    await eventually(() => assert.equal(flags(otherPeer).length, 2));
    assert.equal(flags(targetPeer).length, 2);
  });
});
