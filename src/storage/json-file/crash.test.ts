// Crash safety: a writer process is SIGKILLed in the middle of many concurrent writes, several
// times over the same directory. After each kill every acknowledged write must be there, and
// every record file must parse (no torn file). A SIGKILL does not lose the page cache, so this
// checks the temp-file/rename protocol and start-up recovery, not fsync against a power cut.

import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { TEMP_SUFFIX } from "./durable-writer.ts";
import { openJsonFileStorage } from "./index.ts";
import { SNAPSHOT_FILE } from "./status-snapshot.ts";
import type { JsonFileStatusStore } from "./status-store.ts";
import { runUntilKilled } from "./testing/child.ts";
import { COUNTER_ID, crashAccount, crashStatus } from "./testing/crash-records.ts";

const WRITER = fileURLToPath(new URL("testing/crash-writer.ts", import.meta.url));
const CYCLES = 6;
const LOCK_FILE = "wren.lock";
const JOURNAL = /^statuses\.journal\.\d+$/;

/** The distinct status files named by the journals in `dir` (complete lines only). */
async function journaled(dir: string): Promise<Set<string>> {
  const names = (await readdir(dir)).filter((name) => JOURNAL.test(name));
  const lines = new Set<string>();
  for (const name of names) {
    const parts = (await readFile(join(dir, name), "utf8")).split("\n");
    parts.pop();
    // A line is `+<name>\t<bytes>` (ADR 0065) or, in older journals, the name alone.
    for (const line of parts) {
      if (line !== "") lines.add(line.startsWith("+") ? line.slice(1, line.indexOf("\t")) : line);
    }
  }
  return lines;
}

interface Acks {
  accounts: string[];
  statuses: string[];
  deleted: string[];
  counter: number;
}

/** Runs the writer until it has acknowledged about `target` writes, then SIGKILLs it. */
function runAndKill(dir: string, target: number, acks: Acks): Promise<void> {
  return runUntilKilled(WRITER, [dir], target, (line) => {
    const [kind, value = ""] = line.split(" ");
    if (kind === "account") acks.accounts.push(value);
    else if (kind === "status") acks.statuses.push(value);
    else if (kind === "deleted") acks.deleted.push(value);
    else if (kind === "counter") acks.counter = Math.max(acks.counter, Number(value));
  });
}

/** Every file under `dir`: record files must parse; temp files are the only other leftovers. */
async function checkFiles(dir: string): Promise<{ records: number; temps: number }> {
  let records = 0;
  let temps = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (entry.name.endsWith(TEMP_SUFFIX)) temps++;
    else if (entry.name.endsWith(".json")) {
      const text = await readFile(path, "utf8");
      assert.doesNotThrow(() => JSON.parse(text), `torn record file ${path}`);
      records++;
    } else {
      // The start-up snapshot (ADR 6) and the journals of status writes since (ADR 11).
      assert.ok(
        [LOCK_FILE, SNAPSHOT_FILE].includes(entry.name) || JOURNAL.test(entry.name),
        `unexpected file ${path}`,
      );
    }
  }
  return { records, temps };
}

describe("json-file crash safety", { timeout: 120_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-crash-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write across ${CYCLES} SIGKILLs`, async () => {
    const acks: Acks = { accounts: [], statuses: [], deleted: [], counter: 0 };
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const target = 50 + Math.floor(Math.random() * 600);
      await runAndKill(dir, target, acks);

      // No torn file: every record file parses.
      await checkFiles(dir);
      const changed = await journaled(dir);

      // Opening takes over the dead writer's lock and sweeps its temp files.
      const storage = await openJsonFileStorage(dir);
      try {
        if (cycle > 0) {
          // The snapshot of the last clean close plus exactly the files journaled since (ADR 11).
          // How many that is depends on the random cycles (a short first cycle, then deletes of
          // its statuses, can journal all of them), so it is compared with the journal, not with
          // the acknowledged total; status-journal.test.ts bounds it on a large store.
          const statuses = storage.statuses as JsonFileStatusStore;
          assert.equal(statuses.loadedFrom, "snapshot", `cycle ${cycle}`);
          assert.equal(
            statuses.filesReadAtStart,
            changed.size,
            `cycle ${cycle}: files read at start against the files journaled`,
          );
        }
        const { records, temps } = await checkFiles(dir);
        assert.equal(temps, 0, `cycle ${cycle}: temp files left after open`);
        // A start writes the files its journals' lines hold and the disk does not yet
        // (ADR 0084: a status's file is written after its write is acknowledged).
        const acknowledged = acks.accounts.length + acks.statuses.length;
        assert.ok(records >= acknowledged, `cycle ${cycle}: ${records} < ${acknowledged} files`);
        const accounts = await storage.accounts.getMany(acks.accounts);
        for (const id of acks.accounts) {
          assert.deepEqual(accounts.get(id), crashAccount(id), `cycle ${cycle}: account ${id}`);
        }
        const deleted = new Set(acks.deleted);
        const statuses = await storage.statuses.getMany(acks.statuses);
        for (const id of acks.statuses) {
          // Acknowledged as created; deleted only if that was acknowledged, or it may have been
          // written but not acknowledged before the kill.
          const status = statuses.get(id);
          assert.ok(status, `cycle ${cycle}: acknowledged status ${id} is missing`);
          const expected = crashStatus(id, deleted.has(id) || status.deleted);
          assert.deepEqual(status, expected, `cycle ${cycle}: status ${id}`);
        }
        // Absent until its first write: a short first cycle may be killed before that.
        const counter = Number((await storage.accounts.get(COUNTER_ID))?.displayName ?? 0);
        assert.ok(
          counter >= acks.counter,
          `cycle ${cycle}: counter ${counter} < acknowledged ${acks.counter}`,
        );
      } finally {
        await storage.close();
      }
    }
    assert.ok(acks.accounts.length > 0 && acks.deleted.length > 0);
  });
});
