// Storage contract: polls (their votes are an edge store, checked with the other edges).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ContractContext, sorted, tryToMutate } from "./context.ts";
import { makePoll } from "./fixtures-features.ts";

export function pollContract(t: ContractContext): void {
  describe("polls", () => {
    it("round-trips a poll and answers undefined for unknown ids", async () => {
      const poll = makePoll({ id: "10", statusId: "5", multiple: true, expiresAt: null });
      await t.storage.polls.put(poll);
      assert.deepEqual(await t.storage.polls.get("10"), poll);
      assert.equal(await t.storage.polls.get("11"), undefined);
    });

    it("replaces a poll on put (the counts change with every vote)", async () => {
      await t.storage.polls.put(makePoll({ id: "10" }));
      const voted = makePoll({
        id: "10",
        options: [
          { title: "yes", votesCount: 2 },
          { title: "no", votesCount: 1 },
        ],
        votesCount: 3,
        votersCount: 2,
        closedAt: "2025-01-03T03:04:05.000Z",
      });
      await t.storage.polls.put(voted);
      assert.deepEqual(await t.storage.polls.get("10"), voted);
    });

    it("gets many at once, leaving out missing ids", async () => {
      await Promise.all(["10", "11", "12"].map((id) => t.storage.polls.put(makePoll({ id }))));
      const found = await t.storage.polls.getMany(["12", "10", "404"]);
      assert.deepEqual(sorted([...found.keys()]), ["10", "12"]);
      assert.equal(found.get("12")?.id, "12");
      assert.equal((await t.storage.polls.getMany([])).size, 0);
    });

    it("removes a poll", async () => {
      await Promise.all(["10", "11"].map((id) => t.storage.polls.put(makePoll({ id }))));
      assert.equal(await t.storage.polls.delete("10"), true);
      assert.equal(await t.storage.polls.delete("10"), false);
      assert.equal(await t.storage.polls.delete("404"), false);
      assert.equal(await t.storage.polls.get("10"), undefined);
      assert.deepEqual(await t.storage.polls.listIds(), ["11"]);
      await t.reopen();
      assert.equal(await t.storage.polls.get("10"), undefined);
      assert.equal((await t.storage.polls.get("11"))?.id, "11");
    });

    it("lists every poll's id", async () => {
      assert.deepEqual(await t.storage.polls.listIds(), []);
      await Promise.all(["10", "11"].map((id) => t.storage.polls.put(makePoll({ id }))));
      assert.deepEqual(sorted(await t.storage.polls.listIds()), ["10", "11"]);
    });

    it("keeps its own state: changing a returned poll changes nothing stored", async () => {
      await t.storage.polls.put(makePoll({ id: "10" }));
      const poll = await t.storage.polls.get("10");
      assert.ok(poll);
      tryToMutate(() => {
        (poll.options[0] as { votesCount: number }).votesCount = 99;
      });
      assert.equal((await t.storage.polls.get("10"))?.options[0]?.votesCount, 0);
    });
  });
}
