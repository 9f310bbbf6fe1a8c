import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { IdPage } from "../../storage/ports.ts";
import { type FilledPage, fillPage } from "./fill-page.ts";

// A list of ids 1..20 (newest first when listed), windowed exactly as the storage ports define
// IdPage; items divisible by 3 are hidden.
const ALL = Array.from({ length: 20 }, (_, i) => ({ id: String(i + 1) }));

async function fetchWindow(page: IdPage): Promise<{ id: string }[]> {
  const n = (id: string | undefined) => (id === undefined ? undefined : Number(id));
  const max = n(page.maxId);
  const since = n(page.sinceId);
  const min = n(page.minId);
  let items = ALL.filter(
    (x) =>
      (max === undefined || Number(x.id) < max) &&
      (since === undefined || Number(x.id) > since) &&
      (min === undefined || Number(x.id) > min),
  );
  items = min !== undefined ? items.slice(0, page.limit) : items.slice(-page.limit);
  return items.reverse();
}

const keep = async (batch: { id: string }[]) =>
  batch.map((x) => (Number(x.id) % 3 === 0 ? undefined : Number(x.id)));

describe("fillPage", () => {
  it("fills a descending page past hidden items and resumes after the last one kept", async () => {
    const page = await fillPage({ limit: 4, maxId: "20" }, fetchWindow, keep);
    assert.deepEqual(page.items, [19, 17, 16, 14]);
    assert.equal(page.newestId, "19");
    assert.equal(page.oldestId, "14");
  });

  it("climbs with min_id and keeps the items nearest to it", async () => {
    const page = await fillPage({ limit: 4, minId: "2" }, fetchWindow, keep);
    assert.deepEqual(page.items, [8, 7, 5, 4]);
    assert.equal(page.newestId, "8");
    // 3 was looked at (hidden), so paging older resumes below it.
    assert.equal(page.oldestId, "3");
  });

  it("walks the whole list in both directions, every shown item once", async () => {
    const shown = ALL.map((x) => Number(x.id))
      .filter((n) => n % 3 !== 0)
      .reverse();
    const down: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page: FilledPage<number> = await fillPage(
        { limit: 3, maxId: cursor },
        fetchWindow,
        keep,
      );
      if (page.items.length === 0) break;
      down.push(...page.items);
      cursor = page.oldestId;
    }
    assert.deepEqual(down, shown);
    const up: number[] = [];
    cursor = "0";
    for (;;) {
      const page: FilledPage<number> = await fillPage(
        { limit: 3, minId: cursor },
        fetchWindow,
        keep,
      );
      if (page.items.length === 0) break;
      up.unshift(...page.items);
      cursor = page.newestId;
    }
    assert.deepEqual(up, shown);
  });

  it("stops after a few rounds when nearly everything is hidden", async () => {
    let calls = 0;
    const page = await fillPage(
      { limit: 2 },
      async (p) => {
        calls++;
        return fetchWindow(p);
      },
      async (batch) => batch.map(() => undefined),
    );
    assert.deepEqual(page.items, []);
    assert.ok(calls <= 4);
    // The ids looked at still let a client page on.
    assert.equal(page.newestId, "20");
    assert.equal(page.oldestId, "13");
  });
});
