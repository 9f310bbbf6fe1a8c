import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareIds } from "../domain/ids.ts";
import type { IdPage } from "../storage/ports.ts";
import { type FilledPage, fillPage, MAX_SCANNED, type PagedSource } from "./fill-page.ts";

/** Ids 1..n as strings, read with the store's IdPage semantics (newest first). */
function numbers(n: number, keepIf: (id: number) => boolean) {
  const all = Array.from({ length: n }, (_, i) => String(i + 1));
  const reads: IdPage[] = [];
  const source: PagedSource<string, number> = {
    async read(page) {
      reads.push(page);
      let ids = all.filter(
        (id) =>
          (page.maxId === undefined || compareIds(id, page.maxId) < 0) &&
          (page.sinceId === undefined || compareIds(id, page.sinceId) > 0) &&
          (page.minId === undefined || compareIds(id, page.minId) > 0),
      );
      ids = page.minId !== undefined ? ids.slice(0, page.limit) : ids.slice(-page.limit);
      return ids.reverse();
    },
    idOf: (id) => id,
    async keep(batch) {
      return batch.map((id) => (keepIf(Number(id)) ? Number(id) : undefined));
    },
  };
  return { source, reads };
}

const items = async (page: IdPage, source: PagedSource<string, number>) =>
  (await fillPage(page, source)).items;

const even = (id: number) => id % 2 === 0;
const notThirds = (id: number) => id % 3 !== 0;

describe("fillPage", () => {
  it("fills a page from several batches when most items are filtered out", async () => {
    const { source, reads } = numbers(1000, (id) => id % 10 === 0);
    assert.deepEqual(
      await items({ limit: 20 }, source),
      Array.from({ length: 20 }, (_, i) => 1000 - i * 10),
    );
    assert.ok(reads.length > 1, "needed more than one read");
  });

  it("pages below max_id and stops at since_id", async () => {
    const { source } = numbers(100, even);
    assert.deepEqual(await items({ limit: 3, maxId: "50" }, source), [48, 46, 44]);
    assert.deepEqual(await items({ limit: 10, maxId: "50", sinceId: "43" }, source), [48, 46, 44]);
    // since_id gives the newest items above it, min_id the oldest ones.
    assert.deepEqual(await items({ limit: 2, sinceId: "10" }, source), [100, 98]);
  });

  it("with min_id returns the oldest items above it, newest first", async () => {
    const { source } = numbers(100, even);
    assert.deepEqual(await items({ limit: 3, minId: "10" }, source), [16, 14, 12]);
    assert.deepEqual(await items({ limit: 30, minId: "90", maxId: "97" }, source), [96, 94, 92]);
    // since_id is ignored when min_id is present (Mastodon's to_a_paginated_by_id).
    assert.deepEqual(await items({ limit: 2, minId: "10", sinceId: "50" }, source), [14, 12]);
  });

  it("returns what there is when the source runs dry", async () => {
    const { source } = numbers(7, even);
    assert.deepEqual(await items({ limit: 20 }, source), [6, 4, 2]);
    assert.deepEqual(await items({ limit: 20, minId: "1" }, source), [6, 4, 2]);
    assert.deepEqual(await items({ limit: 20, maxId: "1" }, source), []);
  });

  it("resumes after the last item kept, hidden items included in the bounds", async () => {
    const { source } = numbers(20, notThirds);
    const down = await fillPage({ limit: 4, maxId: "20" }, source);
    assert.deepEqual(down.items, [19, 17, 16, 14]);
    assert.equal(down.newestId, "19");
    assert.equal(down.oldestId, "14");
    const up = await fillPage({ limit: 4, minId: "2" }, source);
    assert.deepEqual(up.items, [8, 7, 5, 4]);
    assert.equal(up.newestId, "8");
    // 3 was looked at (hidden), so paging older resumes below it.
    assert.equal(up.oldestId, "3");
  });

  it("walks the whole list in both directions, every shown item once", async () => {
    const { source } = numbers(20, notThirds);
    const shown = Array.from({ length: 20 }, (_, i) => 20 - i).filter(notThirds);
    const down: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page: FilledPage<number> = await fillPage({ limit: 3, maxId: cursor }, source);
      if (page.items.length === 0) break;
      down.push(...page.items);
      cursor = page.oldestId;
    }
    assert.deepEqual(down, shown);
    const up: number[] = [];
    cursor = "0";
    for (;;) {
      const page: FilledPage<number> = await fillPage({ limit: 3, minId: cursor }, source);
      if (page.items.length === 0) break;
      up.unshift(...page.items);
      cursor = page.newestId;
    }
    assert.deepEqual(up, shown);
  });

  it("bounds the work on a source where nothing is kept, and still names what it read", async () => {
    const { source, reads } = numbers(100_000, () => false);
    const page = await fillPage({ limit: 40 }, source);
    assert.deepEqual(page.items, []);
    const scanned = reads.reduce((sum, r) => sum + r.limit, 0);
    assert.ok(scanned <= MAX_SCANNED + 400, `scanned ${scanned}`);
    // The ids looked at still let a client page on.
    assert.equal(page.newestId, "100000");
    assert.equal(page.oldestId, String(100_000 - scanned + 1));
  });
});
