// The heap watch of the json-file backend (ADR 11): the operator is told, before the status
// summaries fill Node's heap, how far they reach and what to do. A small fake limit stands for
// a real one.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import { DurableWriter } from "./durable-writer.ts";
import { HEAP_BYTES_PER_STATUS, HeapWatch, heapAdvice } from "./heap-watch.ts";
import { openStatusStore } from "./status-store.ts";

const GB = 1024 ** 3;

describe("json-file heap watch", () => {
  it("warns once at 70% and once at 90% of the heap limit, not before", () => {
    const warnings: string[] = [];
    const watch = new HeapWatch({
      heapLimit: 1000 * HEAP_BYTES_PER_STATUS,
      machineMemory: 8 * GB,
      warn: (m) => warnings.push(m),
    });
    for (const count of [0, 10, 699]) watch.check(count);
    assert.deepEqual(warnings, []);
    watch.check(700);
    assert.equal(warnings.length, 1);
    assert.match(String(warnings[0]), /^700 statuses .* \(70%\)/);
    for (const count of [701, 850, 899]) watch.check(count);
    assert.equal(warnings.length, 1);
    watch.check(950);
    assert.equal(warnings.length, 2);
    assert.match(String(warnings[1]), /\(95%\)/);
    watch.check(5000);
    assert.equal(warnings.length, 2);
  });

  it("a start already past both shares warns once, with the larger share", () => {
    const warnings: string[] = [];
    const watch = new HeapWatch({
      heapLimit: 100 * HEAP_BYTES_PER_STATUS,
      warn: (m) => warnings.push(m),
    });
    watch.check(120);
    assert.equal(warnings.length, 1);
    assert.match(String(warnings[0]), /\(120%\)/);
  });

  it("says how to raise the limit while the machine has memory, and where to move", () => {
    const roomy = heapAdvice(10_000_000, 2 * GB, 16 * GB, 0.7);
    assert.match(roomy as string, /NODE_OPTIONS=--max-old-space-size=12288/);
    assert.match(roomy as string, /postgres backend/);
    const tight = heapAdvice(10_000_000, 2 * GB, 2.5 * GB, 0.7);
    assert.doesNotMatch(tight as string, /max-old-space-size/);
    assert.match(tight as string, /no memory to spare/);
    assert.equal(heapAdvice(5_000_000, 2 * GB, 16 * GB, 0.7), undefined);
  });

  it("is fed by the status store: at start and as statuses are added", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wren-heap-"));
    try {
      const warnings: string[] = [];
      const heap = { heapLimit: 10 * HEAP_BYTES_PER_STATUS, warn: (m: string) => warnings.push(m) };
      let writer = new DurableWriter();
      let store = await openStatusStore(dir, writer, { heap });
      for (let n = 1; n <= 6; n++) await store.put(makeStatus({ id: String(n), accountId: "1" }));
      // Edits do not count: only new statuses grow the summaries.
      await store.put(makeStatus({ id: "1", accountId: "1", text: "edited" }));
      assert.equal(warnings.length, 0);
      await store.put(makeStatus({ id: "7", accountId: "1" }));
      assert.equal(warnings.length, 1);
      await store.closeWrites();
      await writer.close();
      // A start that loads 7 statuses is past 70% already.
      writer = new DurableWriter();
      store = await openStatusStore(dir, writer, { heap });
      assert.equal(warnings.length, 2);
      await store.closeWrites();
      await writer.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
