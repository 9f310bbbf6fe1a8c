// Storage contract: statuses by id and by author, id windows, deletion and counts.

import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import type { Status } from "../../domain/status.ts";
import type { IdPage } from "../ports.ts";
import { type ContractContext, ids, sorted } from "./context.ts";
import { CREATED, makeStatus } from "./fixtures.ts";

export function statusContract(t: ContractContext): void {
  describe("statuses", () => {
    it("round-trips, replaces, and getMany leaves missing ids out", async () => {
      const status = makeStatus({ id: "10", accountId: "1" });
      await t.storage.statuses.put(status);
      await t.storage.statuses.put(makeStatus({ id: "20", accountId: "2" }));
      assert.deepEqual(await t.storage.statuses.get("10"), status);
      assert.equal(await t.storage.statuses.get("30"), undefined);
      const found = await t.storage.statuses.getMany(["30", "20", "10"]);
      assert.deepEqual(sorted([...found.keys()]), ["10", "20"]);

      const edited = { ...status, text: "edited", editedAt: "2025-03-01T00:00:00.000Z" };
      await t.storage.statuses.put(edited);
      assert.deepEqual(await t.storage.statuses.get("10"), edited);
      assert.deepEqual(ids(await t.storage.statuses.listByAccount("1", { limit: 20 })), ["10"]);
      assert.equal(await t.storage.statuses.countByAccount("1"), 1);
    });

    it("finds a status by its ActivityPub id, deleted ones too, following uri changes", async () => {
      const remote = makeStatus({ id: "10", accountId: "1", uri: "https://r.example/notes/1" });
      await t.storage.statuses.put(remote);
      await t.storage.statuses.put(
        makeStatus({ id: "11", accountId: "1", uri: "https://r.example/notes/2" }),
      );
      assert.equal((await t.storage.statuses.findByUri("https://r.example/notes/1"))?.id, "10");
      await t.storage.statuses.put({ ...remote, deleted: true });
      assert.equal((await t.storage.statuses.findByUri(remote.uri))?.deleted, true);
      await t.storage.statuses.put({ ...remote, uri: "https://r.example/notes/moved" });
      assert.equal(await t.storage.statuses.findByUri(remote.uri), undefined);
      assert.equal((await t.storage.statuses.findByUri("https://r.example/notes/moved"))?.id, "10");
      assert.equal((await t.storage.statuses.findByUri("https://r.example/notes/2"))?.id, "11");
      assert.equal(await t.storage.statuses.findByUri("https://r.example/notes/none"), undefined);
    });

    it("lists an account's statuses newest first, comparing ids as numbers", async () => {
      // Put out of order; "100" and "9" check numeric (not string) ordering.
      for (const id of ["20", "100", "9", "30"]) {
        await t.storage.statuses.put(makeStatus({ id, accountId: "1" }));
      }
      await t.storage.statuses.put(makeStatus({ id: "25", accountId: "2" }));
      assert.deepEqual(ids(await t.storage.statuses.listByAccount("1", { limit: 20 })), [
        "100",
        "30",
        "20",
        "9",
      ]);
      assert.deepEqual(ids(await t.storage.statuses.listByAccount("2", { limit: 20 })), ["25"]);
      assert.deepEqual(await t.storage.statuses.listByAccount("3", { limit: 20 }), []);
    });

    describe("id windows (IdPage)", () => {
      beforeEach(async () => {
        // Account 1: 9, 10, 20 … 100. Account 2's statuses and a deleted one interleave.
        const puts: Promise<void>[] = [];
        for (const id of ["9", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"]) {
          puts.push(t.storage.statuses.put(makeStatus({ id, accountId: "1" })));
        }
        puts.push(t.storage.statuses.put(makeStatus({ id: "55", accountId: "2" })));
        puts.push(t.storage.statuses.put(makeStatus({ id: "85", accountId: "2" })));
        puts.push(t.storage.statuses.put(makeStatus({ id: "75", accountId: "1", deleted: true })));
        await Promise.all(puts);
      });

      const cases: [IdPage, string[]][] = [
        [{ limit: 40 }, ["100", "90", "80", "70", "60", "50", "40", "30", "20", "10", "9"]],
        [{ limit: 3 }, ["100", "90", "80"]],
        [{ limit: 3, maxId: "80" }, ["70", "60", "50"]],
        [{ limit: 3, maxId: "75" }, ["70", "60", "50"]],
        [
          { limit: 40, maxId: "1000" },
          ["100", "90", "80", "70", "60", "50", "40", "30", "20", "10", "9"],
        ],
        [{ limit: 40, maxId: "9" }, []],
        [{ limit: 3, sinceId: "50" }, ["100", "90", "80"]],
        [{ limit: 40, sinceId: "100" }, []],
        [{ limit: 3, minId: "50" }, ["80", "70", "60"]],
        [{ limit: 3, minId: "45" }, ["70", "60", "50"]],
        [{ limit: 3, minId: "9" }, ["30", "20", "10"]],
        [{ limit: 3, minId: "1" }, ["20", "10", "9"]],
        [{ limit: 40, minId: "100" }, []],
        [{ limit: 40, sinceId: "50", maxId: "90" }, ["80", "70", "60"]],
        [{ limit: 2, sinceId: "50", maxId: "90" }, ["80", "70"]],
        [{ limit: 40, minId: "50", maxId: "90" }, ["80", "70", "60"]],
        [{ limit: 2, minId: "50", maxId: "90" }, ["70", "60"]],
        [{ limit: 40, sinceId: "90", maxId: "50" }, []],
      ];
      for (const [page, expected] of cases) {
        it(`${JSON.stringify(page)} → [${expected.join(", ")}]`, async () => {
          assert.deepEqual(ids(await t.storage.statuses.listByAccount("1", page)), expected);
        });
      }
    });

    it("keeps deleted statuses out of lists and counts, yet returns them by id", async () => {
      await t.storage.statuses.put(makeStatus({ id: "1", accountId: "1" }));
      const status = makeStatus({ id: "2", accountId: "1" });
      await t.storage.statuses.put(status);
      assert.equal(await t.storage.statuses.countByAccount("1"), 2);
      assert.equal(await t.storage.statuses.countLocal(), 2);

      const deletedAt = "2025-04-01T00:00:00.000Z";
      await t.storage.statuses.put({ ...status, deleted: true, deletedAt });
      assert.deepEqual(ids(await t.storage.statuses.listByAccount("1", { limit: 20 })), ["1"]);
      assert.equal(await t.storage.statuses.countByAccount("1"), 1);
      assert.equal(await t.storage.statuses.countLocal(), 1);
      const read = await t.storage.statuses.get("2");
      assert.equal(read?.deleted, true);
      assert.equal(read?.deletedAt, deletedAt);
      assert.equal((await t.storage.statuses.getMany(["2"])).get("2")?.deleted, true);

      // A status stored as deleted from the start is never listed either.
      await t.storage.statuses.put(makeStatus({ id: "3", accountId: "1", deleted: true }));
      assert.equal(await t.storage.statuses.countByAccount("1"), 1);

      // Restoring it (a failed delete rolled back) lists it again.
      await t.storage.statuses.put(status);
      assert.deepEqual(ids(await t.storage.statuses.listByAccount("1", { limit: 20 })), ["2", "1"]);
      assert.equal(await t.storage.statuses.countByAccount("1"), 2);
    });

    it("lists deleted statuses, not deleted reblogs, newest first and paged", async () => {
      const deletedAt = "2025-04-01T00:00:00.000Z";
      const gone = (id: string, accountId: string) =>
        makeStatus({ id, accountId, deleted: true, deletedAt });
      assert.deepEqual(await t.storage.statuses.listDeleted({ limit: 20 }), []);
      await t.storage.statuses.put(makeStatus({ id: "1", accountId: "1" }));
      await t.storage.statuses.put(gone("2", "1"));
      await t.storage.statuses.put(gone("30", "2"));
      await t.storage.statuses.put({ ...gone("4", "2"), reblogOfId: "1" });
      const restored = makeStatus({ id: "5", accountId: "1" });
      await t.storage.statuses.put(restored);
      await t.storage.statuses.put({ ...restored, deleted: true, deletedAt });
      const listed = await t.storage.statuses.listDeleted({ limit: 20 });
      assert.deepEqual(ids(listed), ["30", "5", "2"]);
      assert.deepEqual(listed[0], gone("30", "2"));
      assert.deepEqual(ids(await t.storage.statuses.listDeleted({ limit: 2 })), ["30", "5"]);
      assert.deepEqual(ids(await t.storage.statuses.listDeleted({ limit: 2, maxId: "5" })), ["2"]);
      // Restored: listed with the live statuses again, no longer with the deleted ones.
      await t.storage.statuses.put(restored);
      assert.deepEqual(ids(await t.storage.statuses.listDeleted({ limit: 20 })), ["30", "2"]);
    });

    it("lists remote statuses, deleted ones and reblogs too, newest first and paged", async () => {
      const remote = (id: string, fields: Partial<Status> = {}) =>
        makeStatus({ id, accountId: "9", local: false, ...fields });
      assert.deepEqual(await t.storage.statuses.listRemote({ limit: 20 }), []);
      await t.storage.statuses.put(makeStatus({ id: "1", accountId: "1" }));
      await t.storage.statuses.put(remote("2"));
      await t.storage.statuses.put(remote("30", { deleted: true, deletedAt: CREATED }));
      await t.storage.statuses.put(remote("4", { reblogOfId: "1", visibility: "unlisted" }));
      await t.storage.statuses.put(remote("100", { visibility: "direct" }));
      const listed = await t.storage.statuses.listRemote({ limit: 20 });
      assert.deepEqual(ids(listed), ["100", "30", "4", "2"]);
      assert.deepEqual(listed[3], remote("2"));
      // The sweep's window: below the cutoff, a page at a time.
      assert.deepEqual(ids(await t.storage.statuses.listRemote({ limit: 2, maxId: "100" })), [
        "30",
        "4",
      ]);
      assert.deepEqual(ids(await t.storage.statuses.listRemote({ limit: 2, maxId: "4" })), ["2"]);
      assert.deepEqual(ids(await t.storage.statuses.listRemote({ limit: 2, minId: "2" })), [
        "30",
        "4",
      ]);
    });

    it("removes a status for good, from every list and count", async () => {
      const parent = makeStatus({ id: "1", accountId: "1" });
      const gone = makeStatus({
        id: "5",
        accountId: "9",
        local: false,
        uri: "https://remote.test/notes/5",
        inReplyToId: "1",
        inReplyToAccountId: "1",
        tags: ["wren"],
      });
      const reblog = makeStatus({ id: "6", accountId: "9", local: false, reblogOfId: "1" });
      await t.storage.statuses.put(parent);
      await t.storage.statuses.put(gone);
      await t.storage.statuses.put(reblog);
      await t.storage.statuses.put(makeStatus({ id: "7", accountId: "9", local: false }));
      assert.equal(await t.storage.statuses.delete("5"), true);
      assert.equal(await t.storage.statuses.delete("6"), true);
      assert.equal(await t.storage.statuses.delete("5"), false);
      assert.equal(await t.storage.statuses.delete("404"), false);

      const check = async () => {
        const s = t.storage.statuses;
        assert.equal(await s.get("5"), undefined);
        assert.deepEqual([...(await s.getMany(["5", "6", "7"])).keys()], ["7"]);
        assert.equal(await s.findByUri(gone.uri), undefined);
        assert.deepEqual(ids(await s.listByAccount("9", { limit: 20 })), ["7"]);
        assert.equal(await s.countByAccount("9"), 1);
        assert.deepEqual(await s.listReplies("1"), []);
        assert.equal(await s.countReplies("1"), 0);
        assert.equal(await s.countReblogs("1"), 0);
        assert.equal(await s.findReblog("9", "1"), undefined);
        assert.deepEqual(
          (await s.listTagEntries("wren", { limit: 20 }, { origin: "remote" })).map(
            (e) => e.status_id,
          ),
          ["7"],
        );
        assert.deepEqual(ids(await s.listRemote({ limit: 20 })), ["7"]);
        assert.deepEqual(
          (await s.listEntriesByAccounts(["9"], { limit: 20 })).map((e) => e.status_id),
          ["7"],
        );
      };
      await check();
      // Gone for good: a restart does not bring it back.
      await t.reopen();
      await check();
      // The id can be taken again (a status fetched anew gets a new id, but nothing forbids it).
      await t.storage.statuses.put(gone);
      assert.deepEqual(await t.storage.statuses.get("5"), gone);
      assert.equal(await t.storage.statuses.countReplies("1"), 1);
    });

    it("counts per account and local statuses only", async () => {
      await t.storage.statuses.put(makeStatus({ id: "1", accountId: "1" }));
      await t.storage.statuses.put(makeStatus({ id: "2", accountId: "1" }));
      await t.storage.statuses.put(makeStatus({ id: "3", accountId: "2" }));
      await t.storage.statuses.put(makeStatus({ id: "4", accountId: "9", local: false }));
      await t.storage.statuses.put(makeStatus({ id: "5", accountId: "9", local: false }));
      assert.equal(await t.storage.statuses.countByAccount("1"), 2);
      assert.equal(await t.storage.statuses.countByAccount("2"), 1);
      assert.equal(await t.storage.statuses.countByAccount("9"), 2);
      assert.equal(await t.storage.statuses.countByAccount("7"), 0);
      assert.equal(await t.storage.statuses.countLocal(), 3);
    });
  });
}
