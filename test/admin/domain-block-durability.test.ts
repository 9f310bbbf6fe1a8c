// A suspending domain block's effects survive a crash right after its record is written: the
// purge job is stored no later than the block, and the job alone does the whole work (ends the
// follows, suspends and purges the domain's accounts). Lifting the block runs inline and leaves
// no job behind, and its job, when a crash left one, lifts the suspension by itself.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Job } from "../../src/domain/job.ts";
import {
  DOMAIN_LIFT_JOB,
  DOMAIN_PURGE_JOB,
} from "../../src/services/domain-blocks/domain-block-effects.ts";
import {
  blockDomain,
  domainBlockOf,
  unblockDomain,
} from "../../src/services/domain-blocks/domain-blocks.ts";
import { makeFollow } from "../../src/storage/contract/fixtures.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { eventually } from "../helpers/federation.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("domain block effects are durable with the block", () => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  const jobsOf = async (type: string, domain: string): Promise<Job[]> => {
    const far = new Date(server.wren.ctx.clock.now().getTime() + 3600_000).toISOString();
    return (await server.wren.ctx.storage.jobs.due(far, 1000)).filter(
      (job) => job.type === type && job.payload.domain === domain,
    );
  };

  /** A remote account of `domain` that alice follows. */
  const followedRemote = async (username: string, domain: string) => {
    const ctx = server.wren.ctx;
    const remote = remoteAccountRecord(server, username, domain);
    await ctx.storage.accounts.put(remote);
    await ctx.storage.follows.put(
      makeFollow({ id: ctx.ids.next(), accountId: alice.account.id, targetId: remote.id }),
    );
    return remote;
  };

  // The test server's own runner may take a job before runDue does: wait for the outcome.
  const settles = async (check: () => Promise<void>) =>
    eventually(async () => {
      await server.wren.jobs.runDue();
      await check();
    });
  const suspendedNow = async (id: string, expected: true | undefined) =>
    settles(async () => {
      assert.equal((await server.wren.ctx.storage.accounts.get(id))?.suspended, expected);
    });

  it("stores the purge job before (or with) the block's record", async () => {
    const ctx = server.wren.ctx;
    const { kv } = ctx.storage;
    const set = kv.set.bind(kv);
    let jobsWhenWritten: Job[] | undefined;
    // Watches the block's write (not a fake: the real store writes it) for the job: once the
    // record is durable, so is the job (json-file's journal and the write run side by side, the
    // record's file held until the job's line is synced).
    kv.set = async (entry) => {
      await set(entry);
      if (entry.key[1] === "domainBlock" && entry.key[2] === "first.example") {
        jobsWhenWritten = await jobsOf(DOMAIN_PURGE_JOB, "first.example");
      }
    };
    try {
      await blockDomain(ctx, "first.example", { severity: "suspend" });
    } finally {
      kv.set = set;
    }
    assert.equal(jobsWhenWritten?.length, 1);
  });

  it("the purge job alone ends the follows and purges the accounts (a crash after the write)", async () => {
    const ctx = server.wren.ctx;
    const remote = await followedRemote("zed", "crashed.example");
    // What a crash right after the write leaves: the record and its job, nothing else done.
    await ctx.storage.kv.set({
      key: ["wren", "domainBlock", "crashed.example"],
      value: { domain: "crashed.example", severity: "suspend", createdAt: "2030-01-01T00:00:00Z" },
      expiresAt: null,
    });
    assert.notEqual(await ctx.storage.follows.get(alice.account.id, remote.id), undefined);
    await ctx.jobs.enqueue(DOMAIN_PURGE_JOB, { domain: "crashed.example" });
    await suspendedNow(remote.id, true);
    assert.equal(await ctx.storage.follows.get(alice.account.id, remote.id), undefined);
    const stored = await ctx.storage.accounts.get(remote.id);
    assert.equal(stored?.suspended, true);
    assert.equal(stored?.suspendedByDomainBlock, "crashed.example");
  });

  it("lifting runs at once and leaves no job; a left job lifts by itself", async () => {
    const ctx = server.wren.ctx;
    const remote = await followedRemote("yan", "lifted.example");
    await blockDomain(ctx, "lifted.example", { severity: "suspend" });
    await suspendedNow(remote.id, true);

    assert.equal(await unblockDomain(ctx, "lifted.example"), true);
    assert.equal((await ctx.storage.accounts.get(remote.id))?.suspended, undefined);
    assert.deepEqual(await jobsOf(DOMAIN_LIFT_JOB, "lifted.example"), []);

    // Suspended again, then a crash right after the block's removal: only the job is left.
    await blockDomain(ctx, "lifted.example", { severity: "suspend" });
    await suspendedNow(remote.id, true);
    await ctx.storage.kv.delete(["wren", "domainBlock", "lifted.example"]);
    assert.equal(await domainBlockOf(ctx, "lifted.example"), undefined);
    await ctx.jobs.enqueue(DOMAIN_LIFT_JOB, { domain: "lifted.example" });
    await suspendedNow(remote.id, undefined);
  });

  it("takes over an account its own server had flagged suspended: lifting restores it", async () => {
    const ctx = server.wren.ctx;
    const remote = await followedRemote("zed", "flagged.example");
    const flagged = { ...remote, suspended: true, suspendedByItsServer: true as const };
    await ctx.storage.accounts.put(flagged);
    await blockDomain(ctx, "flagged.example", { severity: "suspend" });
    await settles(async () => {
      const stored = await ctx.storage.accounts.get(remote.id);
      assert.equal(stored?.suspendedByDomainBlock, "flagged.example");
      assert.equal(stored?.suspendedByItsServer, undefined);
    });
    // Purged as the block's own (its follow ends with it).
    assert.equal(await ctx.storage.follows.get(alice.account.id, remote.id), undefined);
    assert.equal(await unblockDomain(ctx, "flagged.example"), true);
    assert.equal((await ctx.storage.accounts.get(remote.id))?.suspended, undefined);
  });

  it("a lift job does nothing while the domain is still suspended", async () => {
    const ctx = server.wren.ctx;
    const remote = await followedRemote("xia", "still.example");
    await blockDomain(ctx, "still.example", { severity: "suspend" });
    await suspendedNow(remote.id, true);
    await ctx.jobs.enqueue(DOMAIN_LIFT_JOB, { domain: "still.example" });
    await settles(async () => {
      assert.deepEqual(await jobsOf(DOMAIN_LIFT_JOB, "still.example"), []);
    });
    assert.equal((await ctx.storage.accounts.get(remote.id))?.suspended, true);
  });
});
