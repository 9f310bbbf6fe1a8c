// Status bodies read on demand through a bounded cache: what comes back after eviction is the
// stored status (deeply frozen), and the cache keeps the most recently used bodies.

import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { compareIds } from "../../domain/ids.ts";
import type { Status } from "../../domain/status.ts";
import { makeStatus } from "../contract/fixtures.ts";
import { DurableWriter } from "./durable-writer.ts";
import { StatusIndexes } from "./status-indexes.ts";
import { StatusRecords } from "./status-records.ts";
import { openStatusStore } from "./status-store.ts";
import { type StatusSummary, summarize } from "./status-summary.ts";
import { StatusTable } from "./status-table.ts";

describe("json-file status bodies", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-bodies-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads evicted bodies back from their files, frozen and equal to what was stored", async () => {
    const writer = new DurableWriter();
    const store = await openStatusStore(dir, writer, { cacheSize: 3 });
    const statuses: Status[] = [];
    for (let n = 10; n < 30; n++) statuses.push(makeStatus({ id: String(n), accountId: "1" }));
    await Promise.all(statuses.map((s) => store.put(s)));
    for (let round = 0; round < 2; round++) {
      for (const status of statuses) {
        const read = await store.get(status.id);
        assert.deepEqual(read, status);
        assert.ok(Object.isFrozen(read) && Object.isFrozen(read?.tags));
        assert.throws(() => {
          (read as { text: string }).text = "changed";
        });
      }
    }
    const page = await store.listByAccount("1", { limit: 20 });
    assert.deepEqual(
      page.map((s) => s.id),
      statuses.map((s) => s.id).reverse(),
    );
    // A hot body is the same object on every read (rendered JSON is cached by identity).
    const hot = await store.get("29");
    assert.equal(await store.get("29"), hot);
    // A change is a new object, also when the old one was evicted meanwhile.
    const old = await store.get("10");
    await store.put({ ...statuses[0], text: "edited" } as Status);
    const changed = await store.get("10");
    assert.notEqual(changed, old);
    assert.equal(changed?.text, "edited");
    for (const status of statuses.slice(1)) await store.get(status.id);
    assert.equal((await store.get("10"))?.text, "edited");
    await store.closeWrites();
    await writer.close();
  });

  it("leaves out a status whose file is found damaged on reading, and moves the file aside", async () => {
    const writer = new DurableWriter();
    // No body cached: every read goes to the file, as after a start from the snapshot.
    const store = await openStatusStore(dir, writer, { cacheSize: 0 });
    for (const id of ["10", "11", "12"]) await store.put(makeStatus({ id, accountId: "1" }));
    await store.filed();
    const file = join(dir, "statuses", "1", "11.json");
    await truncate(file, 20);
    const damaged = await readFile(file);

    assert.deepEqual(
      (await store.listByAccount("1", { limit: 20 })).map((s) => s.id),
      ["12", "10"],
    );
    assert.equal(await store.get("11"), undefined);
    assert.equal(await store.countByAccount("1"), 2);
    assert.deepEqual(
      (await store.listPublicEntries({ limit: 20 }, { origin: "all" })).map((e) => e.status_id),
      ["12", "10"],
    );
    const [moved] = await readdir(join(dir, "quarantine", "statuses", "1"));
    assert.match(moved ?? "", /^11\.json\.\d{4}-/);
    assert.deepEqual(
      await readFile(join(dir, "quarantine", "statuses", "1", moved as string)),
      damaged,
    );
    await store.closeWrites();
    await writer.close();
  });

  it("a start that reads every file files the summaries in id order, whatever the file order", async () => {
    // Several authors and ids of several lengths, written in a scrambled order.
    const ids = ["905", "10", "1000", "99", "117674928927932416", "5", "42", "7000", "31"];
    const writer = new DurableWriter();
    const store = await openStatusStore(dir, writer);
    for (const [n, id] of ids.entries()) {
      await store.put(makeStatus({ id, accountId: String(1 + (n % 3)) }));
    }
    await store.closeWrites();
    await writer.close();
    // No snapshot: every file is read again, in directory order.
    const filed: string[] = [];
    const reader = new DurableWriter();
    const records = await StatusRecords.open(dir, reader, {
      listen: (table) => ({
        leave: () => assert.fail("nothing leaves during a load"),
        enter: (row) => filed.push(table.idOf(row)),
      }),
    });
    const ascending = [...ids].sort(compareIds);
    assert.equal(records.loadedFrom, "missing");
    assert.deepEqual(filed, ascending);
    assert.deepEqual(
      [...records.summaries()].map((s) => s.id),
      ascending,
    );
    await records.close();
    await reader.close();
  });
});

describe("StatusIndexes uri index built after the load", () => {
  it("answers like an index built during the load, also for changes made while it builds", async () => {
    const table = new StatusTable();
    const indexes = new StatusIndexes(table);
    indexes.beginLoad();
    const set = (s: StatusSummary) => {
      const row = table.rowOf(s.id);
      if (row >= 0) indexes.leave(row);
      indexes.enter(table.write(row, s));
    };
    const find = async (uri: string) => {
      const row = await indexes.findByUri(uri);
      return row < 0 ? undefined : table.idOf(row);
    };
    const summary = (n: number, uri = `https://x.test/s/${n}`) =>
      summarize(makeStatus({ id: String(n), accountId: "1", uri }));
    for (let n = 1; n <= 50_000; n++) set(summary(n));
    indexes.endLoad();
    // Made while the first slice has run and the rest waits: one already indexed, one not yet,
    // and a new status.
    set(summary(5, "https://x.test/moved/5"));
    set(summary(45_000, "https://x.test/moved/45000"));
    set(summary(60_000));
    assert.equal(await find("https://x.test/s/5"), undefined);
    assert.equal(await find("https://x.test/moved/5"), "5");
    assert.equal(await find("https://x.test/s/45000"), undefined);
    assert.equal(await find("https://x.test/moved/45000"), "45000");
    assert.equal(await find("https://x.test/s/60000"), "60000");
    assert.equal(await find("https://x.test/s/49999"), "49999");
  });
});
