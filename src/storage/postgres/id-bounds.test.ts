// The bigint bounds of id windows keep exactly the ids json-file keeps (compareIds on strings),
// for ordinary bounds and for the odd ones the API lets through: leading zeros and numbers
// beyond bigint.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareIds } from "../../domain/ids.ts";
import type { IdPage } from "../ports.ts";
import { idBounds } from "./id-window.ts";

/** What json-file keeps of `ids` for the page's bounds (before the limit). */
function reference(ids: readonly string[], page: IdPage): string[] {
  return ids.filter(
    (id) =>
      (page.maxId === undefined || compareIds(id, page.maxId) < 0) &&
      (page.sinceId === undefined || compareIds(id, page.sinceId) > 0) &&
      (page.minId === undefined || compareIds(id, page.minId) > 0),
  );
}

/** What the SQL `id > above and id < below` keeps. */
function windowed(ids: readonly string[], page: IdPage): string[] {
  const bounds = idBounds(page);
  if (bounds === undefined) return [];
  const { above, below } = bounds;
  return ids.filter(
    (id) =>
      (above === undefined || BigInt(id) > above) && (below === undefined || BigInt(id) < below),
  );
}

const IDS = [
  ...["1", "5", "9", "10", "11", "49", "50", "51", "99", "100", "101", "999", "1000"],
  ...["113868729876185088", "9223372036854775806", "9223372036854775807"],
];

const BOUNDS = [
  ...IDS,
  "0",
  "00",
  "05",
  "0050",
  "000",
  "9223372036854775808",
  "99999999999999999999",
  "0000000000000000000000001",
  "1000000000000000000000000",
];

describe("postgres id window bounds", () => {
  it("keep the ids compareIds keeps, for every bound and combination", () => {
    for (const a of BOUNDS) {
      for (const page of [{ maxId: a }, { sinceId: a }, { minId: a }] as Omit<IdPage, "limit">[]) {
        const full = { limit: 40, ...page };
        assert.deepEqual(windowed(IDS, full), reference(IDS, full), JSON.stringify(page));
      }
      for (const b of BOUNDS) {
        for (const page of [
          { maxId: a, sinceId: b },
          { maxId: a, minId: b },
          { sinceId: a, minId: b },
        ]) {
          const full = { limit: 40, ...page };
          assert.deepEqual(windowed(IDS, full), reference(IDS, full), JSON.stringify(page));
        }
      }
    }
  });

  it("refuses a bound that is no number rather than guessing", () => {
    assert.throws(() => idBounds({ maxId: "abc" }), TypeError);
  });
});
