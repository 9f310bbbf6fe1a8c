// The bigint windows keep exactly the ids json-file keeps (compareIds on strings), for ordinary
// bounds and for the odd ones the API lets through: leading zeros and numbers beyond bigint.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareIds } from "../../domain/ids.ts";
import type { IdPage } from "../ports.ts";
import { dbId, dbIds, idWindow } from "./id-window.ts";

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
  const window = idWindow(page);
  if (window === undefined) return [];
  return ids.filter(
    (id) =>
      (window.above === undefined || BigInt(id) > BigInt(window.above)) &&
      (window.below === undefined || BigInt(id) < BigInt(window.below)),
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

describe("postgres id windows", () => {
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

  it("walks upwards for min_id only, and holds nothing for a limit below 1", () => {
    assert.equal(idWindow({ limit: 5, minId: "10" })?.ascending, true);
    assert.equal(idWindow({ limit: 5, sinceId: "10" })?.ascending, false);
    assert.equal(idWindow({ limit: 0 }), undefined);
    assert.equal(idWindow({ limit: -1, maxId: "10" }), undefined);
  });

  it("refuses a bound that is no number rather than guessing", () => {
    assert.throws(() => idWindow({ limit: 5, maxId: "abc" }), TypeError);
  });

  it("takes only canonical ids within bigint as lookups", () => {
    assert.equal(dbId("10"), "10");
    assert.equal(dbId("9223372036854775807"), "9223372036854775807");
    for (const odd of ["010", "9223372036854775808", "abc", "", "-1", "1.5"]) {
      assert.equal(dbId(odd), undefined, odd);
    }
    assert.deepEqual(dbIds(["3", "x", "3", "07", "4"]), ["3", "4"]);
  });
});
