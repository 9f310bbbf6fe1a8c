// Storage contract: the timeline sources — entries by several authors (home), the public
// timelines and hashtag timelines — with their id windows.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareIds } from "../../domain/ids.ts";
import type { Status, TimelineEntry } from "../../domain/status.ts";
import type { IdPage } from "../ports.ts";
import type { ContractContext } from "./context.ts";
import { makeStatus } from "./fixtures.ts";

const statusIds = (entries: readonly TimelineEntry[]) => entries.map((e) => e.status_id);
const untagged = (fields: Parameters<typeof makeStatus>[0]) => makeStatus({ tags: [], ...fields });

export function timelineContract(t: ContractContext): void {
  const putAll = (statuses: readonly Status[]) =>
    Promise.all(statuses.map((s) => t.storage.statuses.put(s)));

  describe("timelines: entries by several authors", () => {
    const seed = () =>
      putAll([
        untagged({ id: "10", accountId: "1" }),
        untagged({ id: "40", accountId: "1", visibility: "private" }),
        untagged({ id: "70", accountId: "1", deleted: true }),
        untagged({ id: "20", accountId: "2", inReplyToId: "99", inReplyToAccountId: "9" }),
        untagged({ id: "50", accountId: "2", reblogOfId: "10" }),
        untagged({ id: "30", accountId: "3", local: false }),
        untagged({ id: "60", accountId: "3", visibility: "direct" }),
        untagged({ id: "35", accountId: "4" }),
      ]);
    const list = async (accountIds: string[], page: IdPage) =>
      statusIds(await t.storage.statuses.listEntriesByAccounts(accountIds, page));

    it("merges the authors' statuses and reblogs newest first, naming each author", async () => {
      await seed();
      assert.deepEqual(
        await t.storage.statuses.listEntriesByAccounts(["1", "2", "3"], { limit: 40 }),
        [
          { account_id: "3", status_id: "60" },
          { account_id: "2", status_id: "50" },
          { account_id: "1", status_id: "40" },
          { account_id: "3", status_id: "30" },
          { account_id: "2", status_id: "20" },
          { account_id: "1", status_id: "10" },
        ],
      );
    });

    it("pages like listByAccount", async () => {
      await seed();
      const authors = ["3", "1", "2"];
      assert.deepEqual(await list(authors, { limit: 2 }), ["60", "50"]);
      assert.deepEqual(await list(authors, { limit: 2, maxId: "50" }), ["40", "30"]);
      assert.deepEqual(await list(authors, { limit: 2, maxId: "70" }), ["60", "50"]);
      assert.deepEqual(await list(authors, { limit: 2, sinceId: "20" }), ["60", "50"]);
      assert.deepEqual(await list(authors, { limit: 2, minId: "20" }), ["40", "30"]);
      assert.deepEqual(await list(authors, { limit: 10, minId: "30", maxId: "60" }), ["50", "40"]);
      assert.deepEqual(await list(authors, { limit: 10, sinceId: "60" }), []);
      assert.deepEqual(await list(authors, { limit: 0 }), []);
    });

    it("ignores unknown and repeated authors, and answers [] for none", async () => {
      await seed();
      assert.deepEqual(await list(["1", "1", "404"], { limit: 40 }), ["40", "10"]);
      assert.deepEqual(await list([], { limit: 40 }), []);
    });

    it("agrees with a plain sort on many authors and pages", async () => {
      // A deterministic pseudo-random spread of ids over 25 authors, checked against a
      // reference that sorts everything.
      let x = 12345;
      const next = () => {
        x = (x * 1103515245 + 12345) % 2147483648;
        return x;
      };
      const all: Status[] = [];
      const used = new Set<string>();
      while (all.length < 400) {
        const id = String(1000 + (next() % 100000));
        if (used.has(id)) continue;
        used.add(id);
        all.push(untagged({ id, accountId: String(next() % 25), deleted: next() % 10 === 0 }));
      }
      await putAll(all);
      for (let round = 0; round < 40; round++) {
        const authors = Array.from({ length: 1 + (next() % 12) }, () => String(next() % 25));
        const pivot = String(1000 + (next() % 100000));
        const page: IdPage = { limit: 1 + (next() % 30) };
        const kind = round % 4;
        if (kind === 1) page.maxId = pivot;
        if (kind === 2) page.sinceId = pivot;
        if (kind === 3) page.minId = pivot;
        const candidates = all
          .filter((s) => !s.deleted && authors.includes(s.accountId))
          .map((s) => s.id)
          .filter((id) => page.maxId === undefined || compareIds(id, page.maxId) < 0)
          .filter((id) => page.sinceId === undefined || compareIds(id, page.sinceId) > 0)
          .filter((id) => page.minId === undefined || compareIds(id, page.minId) > 0)
          .sort(compareIds);
        const window =
          page.minId === undefined
            ? candidates.slice(-page.limit)
            : candidates.slice(0, page.limit);
        const expected = window.reverse();
        assert.deepEqual(await list(authors, page), expected, JSON.stringify({ authors, page }));
      }
    });
  });

  describe("timelines: public", () => {
    const seed = () =>
      putAll([
        untagged({ id: "10", accountId: "1" }),
        untagged({ id: "20", accountId: "2", local: false }),
        untagged({ id: "30", accountId: "1", visibility: "unlisted" }),
        untagged({ id: "40", accountId: "3", reblogOfId: "10" }),
        untagged({ id: "50", accountId: "1", mediaIds: ["m1"] }),
        untagged({ id: "60", accountId: "2", local: false, deleted: true }),
        untagged({ id: "70", accountId: "1", inReplyToId: "20", inReplyToAccountId: "2" }),
        untagged({ id: "80", accountId: "1", inReplyToId: "10", inReplyToAccountId: "1" }),
        untagged({ id: "90", accountId: "2", local: false, visibility: "private" }),
        untagged({ id: "95", accountId: "2", local: false, mediaIds: ["m2"] }),
      ]);
    const list = async (
      origin: "all" | "local" | "remote",
      page: IdPage = { limit: 40 },
      onlyMedia = false,
    ) => statusIds(await t.storage.statuses.listPublicEntries(page, { origin, onlyMedia }));

    it("holds public originals (no reblogs, no replies to others) by origin", async () => {
      await seed();
      assert.deepEqual(await list("all"), ["95", "80", "50", "20", "10"]);
      assert.deepEqual(await list("local"), ["80", "50", "10"]);
      assert.deepEqual(await list("remote"), ["95", "20"]);
      const entries = await t.storage.statuses.listPublicEntries({ limit: 1 }, { origin: "all" });
      assert.deepEqual(entries, [{ account_id: "2", status_id: "95" }]);
    });

    it("filters media and pages", async () => {
      await seed();
      assert.deepEqual(await list("all", { limit: 40 }, true), ["95", "50"]);
      assert.deepEqual(await list("local", { limit: 40 }, true), ["50"]);
      assert.deepEqual(await list("all", { limit: 2, maxId: "80" }), ["50", "20"]);
      assert.deepEqual(await list("all", { limit: 2, minId: "10" }), ["50", "20"]);
      assert.deepEqual(await list("all", { limit: 2, sinceId: "10" }), ["95", "80"]);
      assert.deepEqual(await list("remote", { limit: 1, minId: "20" }, true), ["95"]);
    });

    it("follows deletions and visibility edits", async () => {
      await seed();
      const status = (await t.storage.statuses.get("50")) as Status;
      await t.storage.statuses.put({ ...status, deleted: true });
      const remote = (await t.storage.statuses.get("20")) as Status;
      await t.storage.statuses.put({ ...remote, visibility: "unlisted" });
      const unlisted = (await t.storage.statuses.get("30")) as Status;
      await t.storage.statuses.put({ ...unlisted, visibility: "public" });
      assert.deepEqual(await list("all"), ["95", "80", "30", "10"]);
      assert.deepEqual(await list("all", { limit: 40 }, true), ["95"]);
    });
  });

  describe("timelines: hashtag", () => {
    const seed = () =>
      putAll([
        makeStatus({ id: "10", accountId: "1", tags: ["Wren"] }),
        makeStatus({ id: "20", accountId: "2", local: false, tags: ["wren", "other"] }),
        makeStatus({ id: "30", accountId: "1", tags: ["wren"], visibility: "unlisted" }),
        makeStatus({ id: "40", accountId: "1", tags: ["wrenfan"] }),
        makeStatus({
          id: "50",
          accountId: "1",
          tags: ["WREN"],
          inReplyToId: "20",
          inReplyToAccountId: "2",
        }),
        makeStatus({ id: "60", accountId: "1", tags: ["wren"], deleted: true }),
        makeStatus({ id: "70", accountId: "1", tags: ["wren"], mediaIds: ["m1"] }),
        makeStatus({ id: "80", accountId: "3", tags: ["wren"], reblogOfId: "10" }),
      ]);
    const list = async (
      tag: string,
      origin: "all" | "local" | "remote",
      page: IdPage = { limit: 40 },
      onlyMedia = false,
    ) => statusIds(await t.storage.statuses.listTagEntries(tag, page, { origin, onlyMedia }));

    it("holds public statuses with the tag, replies included, case-insensitively", async () => {
      await seed();
      assert.deepEqual(await list("wren", "all"), ["70", "50", "20", "10"]);
      assert.deepEqual(await list("WREN", "all"), ["70", "50", "20", "10"]);
      assert.deepEqual(await list("Wren", "local"), ["70", "50", "10"]);
      assert.deepEqual(await list("wren", "remote"), ["20"]);
      assert.deepEqual(await list("wren", "all", { limit: 40 }, true), ["70"]);
      assert.deepEqual(await list("wrenfan", "all"), ["40"]);
      assert.deepEqual(await list("wre", "all"), []);
      assert.deepEqual(await list("wren", "all", { limit: 2 }), ["70", "50"]);
      assert.deepEqual(await list("wren", "all", { limit: 2, maxId: "50" }), ["20", "10"]);
      assert.deepEqual(await list("wren", "all", { limit: 1, minId: "10" }), ["20"]);
    });

    it("follows edits of the tags and deletions", async () => {
      await seed();
      const first = (await t.storage.statuses.get("10")) as Status;
      await t.storage.statuses.put({ ...first, tags: ["other"] });
      const media = (await t.storage.statuses.get("70")) as Status;
      await t.storage.statuses.put({ ...media, deleted: true });
      assert.deepEqual(await list("wren", "all"), ["50", "20"]);
      assert.deepEqual(await list("other", "all"), ["20", "10"]);
    });
  });
}
