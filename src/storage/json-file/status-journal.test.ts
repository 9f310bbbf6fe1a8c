// ADR 11: a start after a crash reads the last snapshot plus only the status files journaled
// since, and answers exactly like a start that read every file. The writer is SIGKILLed at a
// random moment while it writes from several loops and snapshots are written while it runs.

import assert from "node:assert/strict";
import { cp, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import type { Storage } from "../ports.ts";
import { openJsonFileStorage } from "./index.ts";
import { readJournals } from "./status-journal.ts";
import { readSnapshot, SNAPSHOT_FILE } from "./status-snapshot.ts";
import type { JsonFileStatusStore } from "./status-store.ts";
import { moduleUrl, spawnCode } from "./testing/child.ts";
import { crashStatus } from "./testing/crash-records.ts";

const CHECKPOINT_EVERY = 40;
const OWNERS = ["2", "3", "4"]; // crashStatus spreads statuses over these accounts

/** Writes statuses from 8 loops (every fifth one deleted after), printing each ack. */
function writerCode(dir: string): string {
  return `
    import { openJsonFileStorage } from ${JSON.stringify(moduleUrl("index.ts"))};
    import { crashStatus } from ${JSON.stringify(moduleUrl("testing/crash-records.ts"))};
    import { createIdGenerator } from ${JSON.stringify(moduleUrl("../../domain/ids.ts"))};
    const storage = await openJsonFileStorage(${JSON.stringify(dir)}, {
      statuses: { checkpointEvery: ${CHECKPOINT_EVERY} },
    });
    const ids = createIdGenerator();
    const ack = (line) => process.stdout.write(line + "\\n");
    // Once a first status's file is written, the filing thread (ADR 0084) has started.
    const first = ids.next();
    await storage.statuses.put(crashStatus(first));
    ack("status " + first);
    await storage.statuses.filed();
    async function loop() {
      for (let n = 0; ; n++) {
        const id = ids.next();
        await storage.statuses.put(crashStatus(id));
        ack("status " + id);
        if (n % 5 === 0) {
          await storage.statuses.put(crashStatus(id, true));
          ack("deleted " + id);
        }
      }
    }
    for (let i = 0; i < 8; i++) void loop();
  `;
}

/** Runs the writer until about `target` acks, kills it; adds what it acknowledged. */
async function writeAndKill(
  dir: string,
  target: number,
  acked: { statuses: Set<string>; deleted: Set<string> },
): Promise<void> {
  const child = spawnCode(writerCode(dir));
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | null>((r) => child.on("exit", (_c, s) => r(s)));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  let count = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    const [kind, id = ""] = line.split(" ");
    (kind === "status" ? acked.statuses : acked.deleted).add(id);
    if (++count === target) setTimeout(() => child.kill("SIGKILL"), Math.random() * 30);
  }
  clearTimeout(timer);
  assert.equal(await exited, "SIGKILL", `the writer died on its own: ${stderr}`);
}

/** What the status store answers about every status and account, as plain data. */
async function answers(storage: Storage, ids: Iterable<string>): Promise<unknown> {
  const s = storage.statuses;
  const out: Record<string, unknown> = { all: [...(await s.getMany([...ids])).entries()] };
  for (const a of OWNERS) {
    out[`count:${a}`] = await s.countByAccount(a);
    out[`list:${a}`] = (await s.listByAccount(a, { limit: 100_000 })).map((x) => x.id);
  }
  out.public = await s.listPublicEntries({ limit: 100_000 }, { origin: "all", onlyMedia: false });
  return out;
}

describe("json-file status journal", { timeout: 180_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-journal-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("a start after a SIGKILL reads only the files journaled since the last snapshot", async () => {
    const acked = { statuses: new Set<string>(), deleted: new Set<string>() };
    for (let cycle = 0; cycle < 3; cycle++) {
      const previous = await readSnapshot(dir);
      await writeAndKill(dir, 300 + Math.floor(Math.random() * 200), acked);
      // What the start is to read: the files named in the journals the snapshot goes with.
      // Their number depends on how far the filer thread lagged (ADR 0084: files not written
      // yet are named again in each new journal), so it is compared exactly, not to a bound.
      const snapshot = await readSnapshot(dir);
      assert.ok(snapshot.ok, "no usable snapshot after the kill");
      // Snapshots were written while it ran: the one on disk goes with a later journal.
      assert.ok(snapshot.journal > (previous.ok ? previous.journal : 0));
      // The same data read in full, for comparison: a copy without the snapshot.
      const full = `${dir}-full`;
      await rm(full, { recursive: true, force: true });
      await cp(dir, full, { recursive: true });
      await rm(join(full, SNAPSHOT_FILE));
      await rm(join(full, "wren.lock"), { force: true });

      const storage = await openJsonFileStorage(dir);
      const statuses = storage.statuses as JsonFileStatusStore;
      let expected: unknown;
      try {
        assert.equal(statuses.loadedFrom, "snapshot");
        const files = (await readdir(join(dir, "statuses"), { recursive: true })).filter((f) =>
          f.endsWith(".json"),
        );
        assert.equal(
          statuses.filesReadAtStart,
          snapshot.changed.size,
          `read ${statuses.filesReadAtStart} of ${files.length} files`,
        );
        assert.ok(statuses.filesReadAtStart < files.length);
        const got = await storage.statuses.getMany([...acked.statuses]);
        for (const id of acked.statuses) {
          const status = got.get(id);
          assert.ok(status, `acknowledged status ${id} is missing`);
          assert.deepEqual(status, crashStatus(id, acked.deleted.has(id) || status.deleted));
        }
        expected = await answers(storage, acked.statuses);
      } finally {
        await storage.close();
      }
      const scanned = await openJsonFileStorage(full);
      try {
        assert.equal((scanned.statuses as JsonFileStatusStore).loadedFrom, "missing");
        assert.deepEqual(await answers(scanned, acked.statuses), expected);
      } finally {
        await scanned.close();
        await rm(full, { recursive: true, force: true });
      }
    }
  });

  it("skips a line a crash cut (no newline yet) and lines of another shape", async () => {
    const root = await mkdtemp(join(tmpdir(), "wren-journal-lines-"));
    try {
      await writeFile(join(root, "statuses.journal.7"), "2/10\n3/11\n\n4/1");
      await writeFile(join(root, "statuses.journal.9"), "zz\n../x/1\n2/12\n");
      await writeFile(join(root, "statuses.journal.3"), "2/99\n"); // before the snapshot's
      assert.deepEqual([...(await readJournals(root, 5))].sort(), ["2/10", "2/12", "3/11"]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
