// The counter tables (migration 0013) against the rows they count: after a long mixed sequence
// of writes from two processes (statuses posted, replied to, boosted, edited, tombstoned and
// removed; favourites and follows made, moved and undone), every count the stores answer equals
// a count(*) over the rows themselves. A trigger case that misses one kind of change shows here
// as a drift, which the storage contract (small, tidy sequences) would not catch.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import postgres from "postgres";
import { makeFavourite, makeFollow, makeStatus } from "../contract/fixtures.ts";
import { twoProcessesOnOneDatabase } from "./testing/hooks.ts";

/** A small deterministic generator (the same sequence on every run). */
function randomFrom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
}

describe("postgres counters kept by triggers", () => {
  const processes = twoProcessesOnOneDatabase(4);
  let raw: postgres.Sql;
  before(() => {
    raw = postgres(processes.database.url, { max: 1, onnotice: () => {} });
  });
  after(async () => {
    await raw?.end();
  });

  it("match count(*) over the rows after a mixed run of writes from two processes", async () => {
    const next = randomFrom(7);
    const accounts = ["1", "2", "3", "4"];
    const statusIds: string[] = [];
    let nextId = 100;
    for (let step = 0; step < 400; step++) {
      const storage = step % 2 === 0 ? processes.a : processes.b;
      const accountId = accounts[next(accounts.length)] as string;
      const target = statusIds.length > 0 ? statusIds[next(statusIds.length)] : undefined;
      const action = next(9);
      if (action <= 2 || target === undefined) {
        const id = String(nextId++);
        const reply = action === 1 && target !== undefined ? target : null;
        const reblog = action === 2 && target !== undefined ? target : null;
        await storage.statuses.put(
          makeStatus({ id, accountId, inReplyToId: reply, reblogOfId: reblog }),
        );
        statusIds.push(id);
      } else if (action === 3) {
        // An edit: the same status stored again, unchanged counts.
        const status = await storage.statuses.get(target);
        if (status) await storage.statuses.put({ ...status, text: `edited ${step}` });
      } else if (action === 4) {
        const status = await storage.statuses.get(target);
        if (status) await storage.statuses.put({ ...status, deleted: !status.deleted });
      } else if (action === 5) {
        await storage.statuses.delete(target);
      } else if (action === 6) {
        await storage.favourites.put(
          makeFavourite({ id: String(nextId++), accountId, targetId: target }),
        );
      } else if (action === 7) {
        await storage.favourites.delete(accountId, target);
      } else {
        const other = accounts[next(accounts.length)] as string;
        if (next(2) === 0) {
          await storage.follows.put(
            makeFollow({ id: String(nextId++), accountId, targetId: other }),
          );
        } else {
          await storage.follows.delete(accountId, other);
        }
      }
    }

    const facts = await processes.a.statuses.accountFacts(accounts);
    for (const accountId of accounts) {
      const [row] = await raw<{ n: number; last: string | null }[]>`
        select count(*)::int as n, (select data->>'createdAt' from statuses
          where account_id = ${accountId}::int8 and not deleted order by id desc limit 1) as last
        from statuses where account_id = ${accountId}::int8 and not deleted`;
      assert.deepEqual(facts.get(accountId), { count: row?.n, lastStatusAt: row?.last }, accountId);
      assert.equal(await processes.b.statuses.countByAccount(accountId), row?.n);
    }
    const interactions = await processes.b.statuses.interactionCounts(statusIds);
    const favourites = await processes.a.favourites.countToMany(statusIds);
    for (const id of statusIds) {
      const [row] = await raw<{ replies: number; reblogs: number; favourites: number }[]>`
        select
          (select count(*)::int from statuses where in_reply_to_id = ${id}::int8 and not deleted)
            as replies,
          (select count(*)::int from statuses where reblog_of_id = ${id}::int8 and not deleted)
            as reblogs,
          (select count(*)::int from edges where kind = 'favourites' and target_id = ${id})
            as favourites`;
      assert.deepEqual(interactions.get(id), { replies: row?.replies, reblogs: row?.reblogs }, id);
      assert.equal(await processes.a.statuses.countReplies(id), row?.replies, `replies of ${id}`);
      assert.equal(await processes.a.statuses.countReblogs(id), row?.reblogs, `reblogs of ${id}`);
      assert.equal(favourites.get(id), row?.favourites, `favourites of ${id}`);
    }
    const followers = await processes.b.follows.countToMany(accounts);
    const following = await processes.b.follows.countFromMany(accounts);
    const favouritesGiven = await processes.b.favourites.countFromMany(accounts);
    for (const accountId of accounts) {
      const [row] = await raw<{ followers: number; following: number; given: number }[]>`
        select
          (select count(*)::int from edges where kind = 'follows' and target_id = ${accountId})
            as followers,
          (select count(*)::int from edges where kind = 'follows' and account_id = ${accountId})
            as following,
          (select count(*)::int from edges where kind = 'favourites' and account_id = ${accountId})
            as given`;
      assert.equal(followers.get(accountId), row?.followers, accountId);
      assert.equal(following.get(accountId), row?.following, accountId);
      assert.equal(await processes.a.follows.countTo(accountId), row?.followers, accountId);
      assert.equal(await processes.a.follows.countFrom(accountId), row?.following, accountId);
      assert.equal(favouritesGiven.get(accountId), row?.given, accountId);
    }
    // The run did reach every case it means to check.
    const [seen] = await raw<{ deleted: number; replies: number; reblogs: number }[]>`
      select count(*) filter (where deleted)::int as deleted,
        count(*) filter (where in_reply_to_id is not null)::int as replies,
        count(*) filter (where reblog_of_id is not null)::int as reblogs
      from statuses`;
    assert.ok((seen?.deleted ?? 0) > 0 && (seen?.replies ?? 0) > 0 && (seen?.reblogs ?? 0) > 0);
  });

  it("moves an edge's counts when a put gives its id another pair", async () => {
    await processes.a.favourites.put(
      makeFavourite({ id: "9000", accountId: "20", targetId: "900" }),
    );
    await processes.b.favourites.put(
      makeFavourite({ id: "9000", accountId: "20", targetId: "901" }),
    );
    assert.deepEqual(
      await processes.a.favourites.countToMany(["900", "901"]),
      new Map([
        ["900", 0],
        ["901", 1],
      ]),
    );
    assert.equal(await processes.a.favourites.countFrom("20"), 1);
  });
});
