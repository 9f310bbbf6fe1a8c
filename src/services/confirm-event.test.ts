// Which events recorded before their write still run after a crash: those whose write is in
// storage (brought up to date from it), not those whose write never happened or was overtaken.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { DomainEvent } from "../domain/events.ts";
import type { Poll } from "../domain/poll.ts";
import type { Status } from "../domain/status.ts";
import {
  CREATED,
  makeAccount,
  makeBlock,
  makeFollow,
  makeStatus,
} from "../storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { confirmEvent } from "./confirm-event.ts";

const statusRecord = (id: string, changes: Partial<Status> = {}) =>
  makeStatus({ id, accountId: "1", ...changes });

const pollRecord = (id: string, statusId: string, changes: Partial<Poll> = {}): Poll => ({
  id,
  statusId,
  accountId: "1",
  options: [
    { title: "yes", votesCount: 0 },
    { title: "no", votesCount: 0 },
  ],
  multiple: true,
  hideTotals: false,
  expiresAt: "2030-01-01T00:00:00.000Z",
  votesCount: 0,
  votersCount: 0,
  closedAt: null,
  createdAt: CREATED,
  ...changes,
});

describe("confirmEvent", () => {
  let dir: string;
  let storage: Storage;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-confirm-"));
    storage = await openJsonFileStorage(dir);
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs a creation whose status is stored, as stored now", async () => {
    await storage.statuses.put(statusRecord("1", { text: "edited since" }));
    const confirmed = await confirmEvent(storage, {
      type: "status.created",
      status: statusRecord("1"),
    });
    assert.equal(confirmed?.type === "status.created" && confirmed.status.text, "edited since");
  });

  it("drops a creation never stored, or deleted since", async () => {
    const missing = { type: "status.created", status: statusRecord("2") } as const;
    assert.equal(await confirmEvent(storage, missing), undefined);
    await storage.statuses.put(
      statusRecord("3", { deleted: true, deletedAt: "2030-01-02T00:00:00Z" }),
    );
    const deleted = { type: "status.created", status: statusRecord("3") } as const;
    assert.equal(await confirmEvent(storage, deleted), undefined);
  });

  it("runs only the edit that was stored", async () => {
    const first = statusRecord("4", { editedAt: "2030-01-01T00:01:00.000Z" });
    const second = statusRecord("4", { editedAt: "2030-01-01T00:02:00.000Z" });
    await storage.statuses.put(first);
    assert.ok(await confirmEvent(storage, { type: "status.updated", status: first }));
    assert.equal(
      await confirmEvent(storage, { type: "status.updated", status: second }),
      undefined,
    );
  });

  it("runs a boost or a favourite only while it is stored", async () => {
    const original = statusRecord("6");
    const reblog = statusRecord("7", { accountId: "2", reblogOfId: "6" });
    const reblogged = { type: "status.reblogged", reblog, original } as const;
    await storage.statuses.put(original);
    assert.equal(await confirmEvent(storage, reblogged), undefined);
    await storage.statuses.put(reblog);
    assert.ok(await confirmEvent(storage, reblogged));

    const favourite = { id: "8", accountId: "2", targetId: "6", createdAt: CREATED, uri: null };
    const favourited = { type: "status.favourited", favourite, status: original } as const;
    assert.equal(await confirmEvent(storage, favourited), undefined);
    await storage.favourites.put(favourite);
    assert.ok(await confirmEvent(storage, favourited));
    await storage.favourites.put({ ...favourite, id: "9" });
    assert.equal(await confirmEvent(storage, favourited), undefined, "favourited again since");
  });

  it("runs a deletion only once the flag is stored", async () => {
    const deleted = statusRecord("5", { deleted: true, deletedAt: "2030-01-02T00:00:00.000Z" });
    await storage.statuses.put(statusRecord("5"));
    assert.equal(
      await confirmEvent(storage, { type: "status.deleted", status: deleted }),
      undefined,
    );
    await storage.statuses.put(deleted);
    assert.ok(await confirmEvent(storage, { type: "status.deleted", status: deleted }));
  });
  it("runs a follow or a follow request only while that very edge is stored", async () => {
    const follow = makeFollow({ id: "20", accountId: "21", targetId: "22", uri: "https://a/f/1" });
    const followed = { type: "account.followed", follow } as const;
    assert.equal(await confirmEvent(storage, followed), undefined, "never stored");
    await storage.follows.put({ ...follow, notify: true });
    const confirmed = await confirmEvent(storage, followed);
    assert.equal(confirmed?.type === "account.followed" && confirmed.follow.notify, true);
    await storage.follows.put({ ...follow, uri: "https://a/f/2" });
    assert.equal(await confirmEvent(storage, followed), undefined, "followed again since");
    await storage.follows.put({ ...follow, id: "23" });
    assert.equal(await confirmEvent(storage, followed), undefined, "a newer follow");

    const request = makeFollow({ id: "24", accountId: "21", targetId: "25" });
    const requested = { type: "account.follow_requested", request } as const;
    assert.equal(await confirmEvent(storage, requested), undefined);
    await storage.followRequests.put(request);
    assert.ok(await confirmEvent(storage, requested));
  });

  it("runs an unfollow or a closed request once that edge is gone", async () => {
    const follow = makeFollow({ id: "30", accountId: "31", targetId: "32" });
    const unfollowed = { type: "account.unfollowed", follow, cause: "unfollow" } as const;
    await storage.follows.put(follow);
    assert.equal(await confirmEvent(storage, unfollowed), undefined, "the edge is still there");
    await storage.follows.delete("31", "32");
    assert.deepEqual(await confirmEvent(storage, unfollowed), unfollowed);
    await storage.follows.put({ ...follow, id: "33" });
    assert.ok(await confirmEvent(storage, unfollowed), "followed again since: still ended");

    const request = makeFollow({ id: "34", accountId: "31", targetId: "35" });
    const closed = { type: "follow_request.closed", request, outcome: "rejected" } as const;
    await storage.followRequests.put(request);
    assert.equal(await confirmEvent(storage, closed), undefined);
    await storage.followRequests.delete("31", "35");
    assert.ok(await confirmEvent(storage, closed));
  });

  it("runs a block while it is stored, an unblock once it is gone", async () => {
    const block = makeBlock({ id: "40", accountId: "41", targetId: "42" });
    const blocked = { type: "account.blocked", block } as const;
    const unblocked = { type: "account.unblocked", block } as const;
    assert.equal(await confirmEvent(storage, blocked), undefined);
    await storage.blocks.put(block);
    assert.ok(await confirmEvent(storage, blocked));
    assert.equal(await confirmEvent(storage, unblocked), undefined);
    await storage.blocks.delete("41", "42");
    assert.ok(await confirmEvent(storage, unblocked));
    assert.equal(await confirmEvent(storage, blocked), undefined, "unblocked since");
  });

  it("runs an unfavourite once that favourite is gone", async () => {
    const favourite = { id: "50", accountId: "51", targetId: "6", createdAt: CREATED, uri: null };
    const unfavourited = { type: "status.unfavourited", favourite } as const;
    await storage.favourites.put(favourite);
    assert.equal(await confirmEvent(storage, unfavourited), undefined);
    await storage.favourites.delete("51", "6");
    assert.ok(await confirmEvent(storage, unfavourited));
  });

  it("runs a profile update once it (or a later one) is stored, with the profile as stored", async () => {
    const before = makeAccount({ id: "60", updatedAt: "2030-01-01T00:00:00.000Z" });
    await storage.accounts.put(before);
    const next = { ...before, displayName: "New", updatedAt: "2030-01-01T00:01:00.000Z" };
    const updated = { type: "account.updated", account: next } as const;
    assert.equal(await confirmEvent(storage, updated), undefined, "still the old profile");
    await storage.accounts.put(next);
    assert.ok(await confirmEvent(storage, updated));
    await storage.accounts.put({
      ...next,
      displayName: "Newer",
      updatedAt: "2030-01-01T00:02:00.000Z",
    });
    const confirmed = await confirmEvent(storage, updated);
    assert.equal(confirmed?.type === "account.updated" && confirmed.account.displayName, "Newer");
  });

  it("runs a vote once the voter's vote holds its choices, with the poll as stored", async () => {
    const poll = pollRecord("70", "71");
    await storage.polls.put({ ...poll, votesCount: 1, votersCount: 1 });
    const voted: DomainEvent = { type: "poll.voted", poll, voterId: "72", choices: [1] };
    assert.equal(await confirmEvent(storage, voted), undefined, "no vote stored");
    const vote = { id: "73", accountId: "72", targetId: "70", choices: [0], createdAt: CREATED };
    await storage.pollVotes.put(vote);
    assert.equal(await confirmEvent(storage, voted), undefined, "an earlier choice only");
    await storage.pollVotes.put({ ...vote, choices: [0, 1] });
    const confirmed = await confirmEvent(storage, voted);
    assert.equal(confirmed?.type === "poll.voted" && confirmed.poll.votesCount, 1);
  });

  it("runs a poll's expiry once this close is stored and its post is not deleted", async () => {
    await storage.statuses.put(statusRecord("81", { pollId: "80" }));
    const poll = pollRecord("80", "81");
    await storage.polls.put(poll);
    const closed = { ...poll, closedAt: "2030-01-01T00:00:01.000Z" };
    const expired = { type: "poll.expired", poll: closed } as const;
    assert.equal(await confirmEvent(storage, expired), undefined, "not closed yet");
    await storage.polls.put(closed);
    assert.ok(await confirmEvent(storage, expired));
    await storage.statuses.put(
      statusRecord("81", { pollId: "80", deleted: true, deletedAt: "2030-01-02T00:00:00.000Z" }),
    );
    assert.equal(await confirmEvent(storage, expired), undefined, "its post is deleted");
  });
});
