import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareIds } from "../../domain/ids.ts";
import type { IdPage } from "../../storage/ports.ts";
import { collectPage, MAX_SCANNED, type PagedSource } from "./collect-page.ts";

/** Ids 1..n as strings, read with the store's IdPage semantics (newest first). */
function numbers(n: number, keepIf: (id: number) => boolean) {
  const all = Array.from({ length: n }, (_, i) => String(i + 1));
  const reads: IdPage[] = [];
  const source: PagedSource<string> = {
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
      return batch.filter((id) => keepIf(Number(id)));
    },
  };
  return { source, reads };
}

const even = (id: number) => id % 2 === 0;

describe("collectPage", () => {
  it("fills a page from several batches when most items are filtered out", async () => {
    const { source, reads } = numbers(1000, (id) => id % 10 === 0);
    const page = await collectPage({ limit: 20 }, source);
    assert.deepEqual(
      page,
      Array.from({ length: 20 }, (_, i) => String(1000 - i * 10)),
    );
    assert.ok(reads.length > 1, "needed more than one read");
  });

  it("pages below max_id and stops at since_id", async () => {
    const { source } = numbers(100, even);
    assert.deepEqual(await collectPage({ limit: 3, maxId: "50" }, source), ["48", "46", "44"]);
    assert.deepEqual(await collectPage({ limit: 10, maxId: "50", sinceId: "43" }, source), [
      "48",
      "46",
      "44",
    ]);
    // since_id gives the newest items above it, min_id the oldest ones.
    assert.deepEqual(await collectPage({ limit: 2, sinceId: "10" }, source), ["100", "98"]);
  });

  it("with min_id returns the oldest items above it, newest first", async () => {
    const { source } = numbers(100, even);
    assert.deepEqual(await collectPage({ limit: 3, minId: "10" }, source), ["16", "14", "12"]);
    assert.deepEqual(await collectPage({ limit: 30, minId: "90", maxId: "97" }, source), [
      "96",
      "94",
      "92",
    ]);
    // since_id is ignored when min_id is present (Mastodon's to_a_paginated_by_id).
    assert.deepEqual(await collectPage({ limit: 2, minId: "10", sinceId: "50" }, source), [
      "14",
      "12",
    ]);
  });

  it("returns what there is when the source runs dry", async () => {
    const { source } = numbers(7, even);
    assert.deepEqual(await collectPage({ limit: 20 }, source), ["6", "4", "2"]);
    assert.deepEqual(await collectPage({ limit: 20, minId: "1" }, source), ["6", "4", "2"]);
    assert.deepEqual(await collectPage({ limit: 20, maxId: "1" }, source), []);
  });

  it("bounds the work on a source where nothing is kept", async () => {
    const { source, reads } = numbers(100_000, () => false);
    assert.deepEqual(await collectPage({ limit: 40 }, source), []);
    const scanned = reads.reduce((sum, r) => sum + r.limit, 0);
    assert.ok(scanned <= MAX_SCANNED + 400, `scanned ${scanned}`);
  });
});
