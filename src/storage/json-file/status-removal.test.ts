// Removing statuses for good (the remote status retention sweep) shrinks the json-file backend
// where it grows: the summaries held in memory, the cached bodies and the files on disk. The
// removal is journaled like a write, so a start after a crash (snapshot plus journals) and a start
// after a clean stop (a new snapshot) both leave the removed statuses out.

import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import { DurableWriter } from "./durable-writer.ts";
import { StatusRecords } from "./status-records.ts";

describe("json-file status removal", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-removal-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const open = (writer: DurableWriter) =>
    StatusRecords.open(dir, writer, {
      listen: () => ({ leave() {}, enter() {} }),
    });
  const count = (records: StatusRecords) => [...records.summaries()].length;
  const files = async () => {
    let total = 0;
    for (const account of await readdir(join(dir, "statuses"))) {
      total += (await readdir(join(dir, "statuses", account))).length;
    }
    return total;
  };
  /** A clean stop: writes the snapshot. */
  const stop = async (records: StatusRecords, writer: DurableWriter) => {
    await records.close();
    await writer.close();
    await records.checkpoint();
  };
  const ids = Array.from({ length: 50 }, (_, n) => String(1000 + n));
  const removed = ids.filter((_, n) => n % 5 !== 0);

  it("shrinks memory and disk, and stays removed after a crash and after a clean stop", async () => {
    let writer = new DurableWriter();
    let records = await open(writer);
    await Promise.all(
      ids.map((id, n) =>
        records.put(makeStatus({ id, accountId: n % 2 === 0 ? "7" : "8", local: false })),
      ),
    );
    await stop(records, writer);

    writer = new DurableWriter();
    records = await open(writer);
    assert.equal(records.loadedFrom, "snapshot");
    assert.equal(count(records), 50);
    assert.equal(await files(), 50);
    // Bodies read into the cache go too.
    for (const id of ids) assert.equal((await records.get(id))?.id, id);
    const answers = await Promise.all(removed.map((id) => records.remove(id)));
    assert.ok(answers.every((answer) => answer === true));
    assert.equal(await records.remove(removed[0] as string), false);
    assert.equal(count(records), 10);
    assert.equal(await files(), 10);
    for (const id of removed) assert.equal(await records.get(id), undefined);
    assert.equal((await records.get(ids[0] as string))?.id, ids[0]);

    // A crash: no snapshot written since the removals, only their journal lines. The closed
    // writes close the journal's file as the crash would, and write nothing (no checkpoint()).
    await writer.flush();
    await records.close();
    writer = new DurableWriter();
    records = await open(writer);
    assert.equal(records.loadedFrom, "snapshot");
    assert.equal(records.filesRead, removed.length, "the journaled names are read again");
    assert.equal(count(records), 10);
    for (const id of removed) assert.equal(await records.get(id), undefined);

    // A clean stop: the new snapshot holds only what is left.
    await stop(records, writer);
    writer = new DurableWriter();
    records = await open(writer);
    assert.equal(records.loadedFrom, "snapshot");
    assert.equal(records.filesRead, 0);
    assert.equal(count(records), 10);
    assert.equal(await files(), 10);
    await stop(records, writer);
  });
});
