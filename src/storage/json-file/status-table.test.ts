// The status table (ADR 37): every summary comes back as written, whatever form its ids and uri
// take; rows are found by id and uri after removals and reuse; a copy does not see later writes.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareIds } from "../../domain/ids.ts";
import { makeStatus } from "../contract/fixtures.ts";
import { formatDecimal, parseDecimal, parsed } from "./id-codec.ts";
import { RowHash } from "./row-hash.ts";
import { RowList } from "./row-list.ts";
import { type StatusSummary, summarize } from "./status-summary.ts";
import { StatusTable } from "./status-table.ts";

const URIS = [
  "https://m.example/users/bob/statuses/111222333444555666",
  "https://m.example/users/bob/statuses/111222333444555667/activity",
  "https://mk.example/notes/9k2xz3ab1c",
  "https://mk.example/notes/9k2xz3ab1c/activity",
  "https://p.example/objects/0b7f1a2c-1111-4222-8333-944445555666",
  "https://x.example/abcdef",
  "https://x.example/",
  "https://x.example",
  "urn:x:1",
  "https://h.example/@bob/0123",
  "https://h.example/@bob/99999999999999999999999",
  "https://h.example/p/abc?x=1",
];

function summary(fields: Partial<StatusSummary> & { id: string }): StatusSummary {
  return { ...summarize(makeStatus({ id: fields.id, accountId: "1" })), ...fields };
}

describe("status ids as two halves", () => {
  it("round-trip canonical decimals and order them as compareIds does", () => {
    const ids = ["0", "5", "4294967295", "4294967296", "9007199254740993", "117674928927932416"];
    ids.push("9223372036854775807");
    const halves = ids.map((id) => {
      assert.ok(parseDecimal(id), id);
      assert.equal(formatDecimal(parsed.hi, parsed.lo), id);
      return [parsed.hi, parsed.lo] as const;
    });
    for (let i = 1; i < ids.length; i++) {
      const [a, b] = [halves[i - 1], halves[i]] as [readonly number[], readonly number[]];
      assert.ok(compareIds(ids[i - 1] as string, ids[i] as string) < 0);
      assert.ok(
        (a[0] as number) < (b[0] as number) ||
          (a[0] === b[0] && (a[1] as number) < (b[1] as number)),
      );
    }
  });

  it("refuses what is no canonical decimal below 2^63", () => {
    for (const id of ["", "01", "-1", "1a", "9223372036854775808", "12345678901234567890"]) {
      assert.equal(parseDecimal(id), false, id);
    }
  });
});

describe("StatusTable", () => {
  it("gives back every summary as written, with ids and uris of every form", () => {
    const table = new StatusTable();
    const written = URIS.map((uri, n) =>
      summary({
        id: n % 3 === 0 ? `odd-${n}` : String(117674928927932416n + BigInt(n)),
        accountId: `a${n % 4}`,
        uri,
        visibility: (["public", "unlisted", "private", "direct"] as const)[n % 4],
        local: n % 2 === 0,
        deleted: n % 5 === 0,
        hasMedia: n % 3 === 1,
        inReplyToId: n % 2 === 0 ? null : n % 4 === 1 ? "odd-parent" : "42",
        inReplyToAccountId: n % 2 === 0 ? null : "a9",
        reblogOfId: n === 4 ? "7" : null,
        tags: n % 3 === 0 ? [] : ["wren", `t${n % 2}`],
      }),
    );
    const rows = written.map((s) => table.write(-1, s));
    written.forEach((s, n) => {
      const row = rows[n] as number;
      assert.equal(table.rowOf(s.id), row);
      assert.deepEqual(table.summary(row), s);
      const key = table.uriHash(s.uri);
      assert.ok(key, s.uri);
      assert.equal(key.hash, table.uriHashOf(row), s.uri);
      assert.ok(key.holds(row), s.uri);
    });
    assert.equal(table.size, written.length);
    assert.equal(table.uriHash("https://unknown.example/x/1"), undefined);
  });

  it("finds rows after removals and reuses the freed rows", () => {
    const table = new StatusTable();
    for (let n = 1; n <= 5_000; n++) table.write(-1, summary({ id: String(n) }));
    for (let n = 1; n <= 5_000; n += 2) table.remove(table.rowOf(String(n)));
    assert.equal(table.size, 2_500);
    for (let n = 1; n <= 5_000; n++) {
      const row = table.rowOf(String(n));
      if (n % 2 === 1) assert.equal(row, -1, String(n));
      else assert.equal(table.idOf(row), String(n));
    }
    const row = table.write(-1, summary({ id: "99999" }));
    assert.ok(row < 5_000, "a freed row is taken again");
    assert.equal(table.rowOf("99999"), row);
    assert.equal([...table.rows()].length, 2_501);
  });

  it("a copy keeps the rows as they were when copied", () => {
    const table = new StatusTable();
    const row = table.write(-1, summary({ id: "1", tags: ["a"] }));
    const copy = table.copy();
    table.write(row, summary({ id: "1", tags: ["b"], deleted: true }));
    table.write(-1, summary({ id: "2" }));
    assert.deepEqual(copy.summary(row).tags, ["a"]);
    assert.equal(copy.summary(row).deleted, false);
    assert.deepEqual([...copy.rows()], [row]);
    assert.deepEqual(table.summary(row).tags, ["b"]);
  });

  it("orders rows by id as compareIds does, odd ids too", () => {
    const table = new StatusTable();
    const ids = ["905", "abc", "10", "1000", "99", "117674928927932416", "5", "zz", "x"];
    const rows = ids.map((id) => table.write(-1, summary({ id })));
    const sorted = [...rows].sort((a, b) => table.compare(a, b)).map((r) => table.idOf(r));
    assert.deepEqual(sorted, [...ids].sort(compareIds));
    const key = table.key("99");
    assert.deepEqual(
      rows
        .filter((r) => table.compareToId(r, key) < 0)
        .map((r) => table.idOf(r))
        .sort(compareIds),
      ["5", "x", "10"],
    );
  });
});

describe("RowHash", () => {
  it("finds every row after deletes that shift colliding entries back", () => {
    // Few distinct hashes: long probe runs, so every delete moves entries.
    const keys = new Map<number, number>();
    const hash = new RowHash((row) => keys.get(row) as number);
    for (let row = 0; row < 2_000; row++) {
      keys.set(row, (row * 7) % 64);
      hash.set(row, (row * 7) % 64, (other) => other === row);
    }
    for (let row = 0; row < 2_000; row += 3) hash.delete(row, keys.get(row) as number);
    for (let row = 0; row < 2_000; row++) {
      // Rows share hashes here: the probe must reach this very row past the others.
      const found = hash.find(keys.get(row) as number, (other) => other === row) === row;
      assert.equal(found, row % 3 !== 0, String(row));
    }
    assert.equal(hash.size, 2_000 - Math.ceil(2_000 / 3));
  });

  it("set replaces the row holding the same key", () => {
    const hash = new RowHash(() => 1);
    hash.set(3, 1, () => false);
    hash.set(4, 1, (other) => other === 3);
    assert.equal(hash.size, 1);
    assert.equal(
      hash.find(1, () => true),
      4,
    );
  });
});

describe("RowList", () => {
  it("keeps order when rows come out of order, during a load and after", () => {
    const order = [5, 1, 9, 3, 7, 2, 8];
    const list = new RowList((a, b) => a - b);
    for (const row of order.slice(0, 4)) list.add(row, true);
    assert.deepEqual([...list.view()], [1, 3, 5, 9]);
    for (const row of order.slice(4)) list.add(row, false);
    assert.deepEqual([...list.view()], [1, 2, 3, 5, 7, 8, 9]);
    list.delete(5);
    list.delete(6);
    assert.deepEqual([...list.view()], [1, 2, 3, 7, 8, 9]);
    assert.equal(
      list.partition((row) => row < 7),
      3,
    );
  });
});
