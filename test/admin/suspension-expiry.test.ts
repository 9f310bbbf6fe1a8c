// A moderator's suspension is reversible for 30 days, then the account's data is deleted as by
// `DELETE /api/v1/admin/accounts/:id` (Mastodon's AccountDeletionRequest): the job is stored with
// the suspension, falls due at the end of the grace period, and does nothing when the suspension
// was lifted, or lifted and made again later (the later suspension has its own 30 days). A daily
// sweep deletes the local suspensions past their period that have no job.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  actOnAccount,
  OPERATOR,
  undoAction,
} from "../../src/services/accounts/moderate-account.ts";
import {
  SUSPENSION_GRACE_DAYS,
  SUSPENSION_PURGE_JOB,
  SUSPENSION_SWEEP_JOB,
} from "../../src/services/accounts/suspension-expiry.ts";
import { BACKFILL_DONE_KEY } from "../../src/services/accounts/suspension-purge-backfill.ts";
import { makeFollow } from "../../src/storage/contract/fixtures.ts";
import { createUserWithToken } from "../helpers/accounts.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type MovableClock, movableClock } from "../polls/helpers.ts";

const DAY = 24 * 3600_000;

describe("suspensions end in deletion after the grace period", () => {
  let server: TestServer;
  let clock: MovableClock;

  before(async () => {
    clock = movableClock();
    server = await startTestServer({}, { clock });
  });
  after(() => server.close());

  const post = async (token: string, text: string): Promise<string> => {
    const res = await server.request("/api/v1/statuses", {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: text }),
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { id: string }).id;
  };
  const purgeJobsOf = async (accountId: string) => {
    const far = new Date(clock.now().getTime() + 400 * DAY).toISOString();
    return (await server.wren.ctx.storage.jobs.due(far, 1000)).filter(
      (job) => job.type === SUSPENSION_PURGE_JOB && job.payload.accountId === accountId,
    );
  };

  it("deletes a local account's data 30 days after its suspension, not before", async () => {
    const ctx = server.wren.ctx;
    const carol = await createUserWithToken(server, "carol");
    const statusId = await post(carol.token, "soon gone");
    await actOnAccount(ctx, OPERATOR, carol.account.id, { type: "suspend" });
    const [job, ...others] = await purgeJobsOf(carol.account.id);
    assert.equal(others.length, 0);
    assert.equal(Date.parse(job?.runAt ?? ""), clock.now().getTime() + SUSPENSION_GRACE_DAYS * DAY);

    clock.advance((SUSPENSION_GRACE_DAYS - 1) * DAY);
    await server.wren.jobs.runDue();
    assert.equal((await ctx.storage.statuses.get(statusId))?.deleted, false);
    // Still reversible: the record says it was suspended by us.
    assert.equal((await ctx.storage.accounts.get(carol.account.id))?.suspensionOrigin, "local");

    clock.advance(DAY);
    await server.wren.jobs.runDue();
    assert.equal((await ctx.storage.statuses.get(statusId))?.deleted, true);
    const gone = await ctx.storage.accounts.get(carol.account.id);
    assert.equal(gone?.suspended, true);
    // No longer reversible.
    assert.equal(gone?.suspensionOrigin, "remote");
    assert.deepEqual(await purgeJobsOf(carol.account.id), []);
  });

  it("leaves an account alone once unsuspended; a later suspension has its own period", async () => {
    const ctx = server.wren.ctx;
    const dan = await createUserWithToken(server, "dan");
    const statusId = await post(dan.token, "still here");
    await actOnAccount(ctx, OPERATOR, dan.account.id, { type: "suspend" });
    clock.advance(10 * DAY);
    await undoAction(ctx, OPERATOR, dan.account.id, "unsuspend");
    clock.advance(10 * DAY);
    await actOnAccount(ctx, OPERATOR, dan.account.id, { type: "suspend" });
    // The first suspension's day comes: its job finds a different suspension and does nothing.
    clock.advance(10 * DAY);
    await server.wren.jobs.runDue();
    assert.equal((await ctx.storage.statuses.get(statusId))?.deleted, false);
    assert.equal((await ctx.storage.accounts.get(dan.account.id))?.suspensionOrigin, "local");
    // The second one's.
    clock.advance(20 * DAY);
    await server.wren.jobs.runDue();
    assert.equal((await ctx.storage.statuses.get(statusId))?.deleted, true);
  });

  it("a daily sweep deletes a local suspension's data that has no job (made before them)", async () => {
    const ctx = server.wren.ctx;
    const gail = await createUserWithToken(server, "gail");
    const statusId = await post(gail.token, "from long ago");
    const account = await ctx.storage.accounts.get(gail.account.id);
    // As an older version left it: suspended 40 days ago, no deletion job.
    const suspendedAt = new Date(clock.now().getTime() - 40 * DAY).toISOString();
    await ctx.storage.accounts.put({
      ...(account as NonNullable<typeof account>),
      suspended: true,
      suspendedAt,
      suspensionOrigin: "local",
    });
    assert.deepEqual(await purgeJobsOf(gail.account.id), []);
    const sweeps = await Promise.all(
      SUSPENSION_SWEEP_JOB.ids.map((id) => ctx.storage.jobs.get(id)),
    );
    assert.equal(sweeps.filter((job) => job !== undefined).length, 1);
    clock.advance(SUSPENSION_SWEEP_JOB.intervalMs);
    await server.wren.jobs.runDue();
    assert.equal((await ctx.storage.statuses.get(statusId))?.deleted, true);
    assert.equal((await ctx.storage.accounts.get(gail.account.id))?.suspensionOrigin, "remote");
  });

  it("gives remote suspensions made before the jobs existed theirs, once, at the next start", async () => {
    const ctx = server.wren.ctx;
    const put = async (username: string, daysAgo: number, origin: "local" | "remote") => {
      const record = remoteAccountRecord(server, username, "old.example", {
        suspended: true,
        suspendedAt: new Date(clock.now().getTime() - daysAgo * DAY).toISOString(),
        suspensionOrigin: origin,
      });
      await ctx.storage.accounts.put(record);
      return record;
    };
    // As an older version left them: no deletion job. One past its 30 days, one within them,
    // one suspended by its own server (not ours to delete).
    const overdue = await put("overdue", 40, "local");
    const within = await put("within", 10, "local");
    const theirs = await put("theirs", 40, "remote");
    const frank = await createUserWithToken(server, "frank2");
    await ctx.storage.follows.put(
      makeFollow({ id: ctx.ids.next(), accountId: frank.account.id, targetId: overdue.id }),
    );
    // And one suspended by this version, which has its job already.
    const recent = remoteAccountRecord(server, "recent", "old.example");
    await ctx.storage.accounts.put(recent);
    await actOnAccount(ctx, OPERATOR, recent.id, { type: "suspend" });
    // The instance's first start with this version (a new one marks the walk done at once).
    await ctx.storage.kv.delete(BACKFILL_DONE_KEY);
    await server.restart();

    const after = server.wren.ctx;
    const [late] = await purgeJobsOf(overdue.id);
    assert.equal(Date.parse(late?.runAt ?? ""), clock.now().getTime());
    const [due] = await purgeJobsOf(within.id);
    assert.equal(Date.parse(due?.runAt ?? ""), clock.now().getTime() + 20 * DAY);
    assert.deepEqual(await purgeJobsOf(theirs.id), []);
    assert.equal((await purgeJobsOf(recent.id)).length, 1);
    const marker = await after.storage.kv.get(BACKFILL_DONE_KEY);
    assert.deepEqual((marker?.value as { added?: number } | undefined)?.added, 2);

    await server.wren.jobs.runDue();
    assert.equal(await after.storage.follows.get(frank.account.id, overdue.id), undefined);
    assert.equal((await after.storage.accounts.get(overdue.id))?.suspensionOrigin, "remote");
    assert.equal((await after.storage.accounts.get(within.id))?.suspensionOrigin, "local");
    // Done: a later start walks nothing again (the job of `within` stays the one it had).
    await server.restart();
    assert.deepEqual(
      (await purgeJobsOf(within.id)).map((job) => job.id),
      [due?.id],
    );
    clock.advance(20 * DAY);
    await server.wren.jobs.runDue();
    assert.equal(
      (await server.wren.ctx.storage.accounts.get(within.id))?.suspensionOrigin,
      "remote",
    );
  });

  it("deletes a remote account's stored posts 30 days after a moderator suspended it", async () => {
    const ctx = server.wren.ctx;
    const remote = remoteAccountRecord(server, "eve", "far.example");
    await ctx.storage.accounts.put(remote);
    const frank = await createUserWithToken(server, "frank");
    await ctx.storage.follows.put(
      makeFollow({ id: ctx.ids.next(), accountId: frank.account.id, targetId: remote.id }),
    );
    await actOnAccount(ctx, OPERATOR, remote.id, { type: "suspend" });
    clock.advance(SUSPENSION_GRACE_DAYS * DAY - 1);
    await server.wren.jobs.runDue();
    assert.notEqual(await ctx.storage.follows.get(frank.account.id, remote.id), undefined);
    clock.advance(1);
    await server.wren.jobs.runDue();
    assert.equal(await ctx.storage.follows.get(frank.account.id, remote.id), undefined);
    assert.equal((await ctx.storage.accounts.get(remote.id))?.suspensionOrigin, "remote");
  });
});
