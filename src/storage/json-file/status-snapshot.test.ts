// The start-up snapshot of the status summaries (ADR 6): used when valid, and every other case
// (missing, damaged, stale, another version, a crash after a write) falls back to reading every
// status file with exactly the same answers.

import assert from "node:assert/strict";
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Status } from "../../domain/status.ts";
import { makeStatus } from "../contract/fixtures.ts";
import type { Storage } from "../ports.ts";
import { TEMP_SUFFIX } from "./durable-writer.ts";
import { openJsonFileStorage } from "./index.ts";
import { readSnapshot, SNAPSHOT_FILE, writeSnapshot } from "./status-snapshot.ts";
import type { JsonFileStatusStore } from "./status-store.ts";
import { summarize } from "./status-summary.ts";
import { moduleUrl, spawnCode, waitForLine } from "./testing/child.ts";

const ACCOUNTS = ["1", "2", "3"];

/** Statuses covering every index: replies (to self and others), reblogs, tags, media, deletion. */
function varied(): Status[] {
  const out: Status[] = [];
  for (let n = 100; n < 160; n++) {
    const accountId = ACCOUNTS[n % 3] as string;
    const fields: Partial<Status> & { id: string; accountId: string } = {
      id: String(n),
      accountId,
      local: n % 4 !== 0,
      visibility: (["public", "unlisted", "private", "direct"] as const)[
        n % 5 === 0 ? 1 : n % 7 === 0 ? 2 : n % 11 === 0 ? 3 : 0
      ],
      tags: n % 2 === 0 ? ["Wren", `t${n % 3}`] : [],
      mediaIds: n % 6 === 0 ? [`m${n}`] : [],
    };
    if (n % 5 === 1 && n > 105) {
      const parent = out[n - 105] as Status;
      Object.assign(fields, { inReplyToId: parent.id, inReplyToAccountId: parent.accountId });
    }
    if (n % 9 === 2 && n > 110) Object.assign(fields, { reblogOfId: String(n - 10), tags: [] });
    if (n % 13 === 0)
      Object.assign(fields, { deleted: true, deletedAt: "2026-01-02T00:00:00.000Z" });
    out.push(makeStatus(fields));
  }
  return out;
}

/** Every answer of the status store, as plain data to compare between two opens. */
async function answers(storage: Storage): Promise<unknown> {
  const s = storage.statuses;
  const ids = varied()
    .map((x) => x.id)
    .concat(["999"]);
  const page = { limit: 100 };
  const out: Record<string, unknown> = {
    get: await Promise.all(ids.map((id) => s.get(id))),
    many: [...(await s.getMany(ids)).entries()],
    byUri: await Promise.all(varied().map((x) => s.findByUri(x.uri))),
    countLocal: await s.countLocal(),
    // Of the varied statuses only: a test adds a deleted one behind the snapshot's back.
    deleted: (await s.listDeleted(page)).filter((x) => ids.includes(x.id)),
    home: await s.listEntriesByAccounts(ACCOUNTS, page),
    homePage: await s.listEntriesByAccounts(ACCOUNTS, { limit: 5, maxId: "150" }),
  };
  for (const origin of ["all", "local", "remote"] as const) {
    for (const onlyMedia of [false, true]) {
      out[`public:${origin}:${onlyMedia}`] = await s.listPublicEntries(page, { origin, onlyMedia });
      out[`tag:${origin}:${onlyMedia}`] = await s.listTagEntries("wREN", page, {
        origin,
        onlyMedia,
      });
    }
  }
  for (const a of ACCOUNTS) {
    out[`account:${a}`] = await s.listByAccount(a, page);
    out[`filtered:${a}`] = await s.listByAccount(a, page, {
      excludeReplies: true,
      excludeReblogs: true,
    });
    out[`media:${a}`] = await s.listByAccount(a, page, { onlyMedia: true, tagged: "t0" });
    out[`visible:${a}`] = await s.listByAccount(a, page, { visibilities: ["public"] });
    out[`count:${a}`] = await s.countByAccount(a);
  }
  for (const id of ids) {
    out[`replies:${id}`] = [await s.listReplies(id), await s.countReplies(id)];
    out[`reblogs:${id}`] = [await s.listReblogs(id, page), await s.countReblogs(id)];
    for (const a of ACCOUNTS) out[`reblog:${a}:${id}`] = await s.findReblog(a, id);
  }
  return out;
}

const loadedFrom = (storage: Storage) => (storage.statuses as JsonFileStatusStore).loadedFrom;
const filesRead = (storage: Storage) => (storage.statuses as JsonFileStatusStore).filesReadAtStart;
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe("json-file status snapshot", () => {
  let dir: string;
  let snapshot: string;
  /** The answers of a storage that read every status file. */
  let scanned: unknown;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-snapshot-"));
    snapshot = join(dir, SNAPSHOT_FILE);
    const storage = await openJsonFileStorage(dir);
    for (const status of varied()) await storage.statuses.put(status);
    scanned = await answers(storage);
    await storage.close();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The lines of every journal in the data directory. */
  const journalLines = async () => {
    const names = (await readdir(dir)).filter((n) => n.startsWith("statuses.journal."));
    const texts = await Promise.all(names.map((n) => readFile(join(dir, n), "utf8")));
    return texts.join("").split("\n").filter(Boolean);
  };

  const countOf = (account: string) =>
    (scanned as Record<string, number>)[`count:${account}`] as number;

  /** Reopens, checks where the summaries came from and that every answer is the same. */
  async function reopenExpecting(source: string): Promise<void> {
    const storage = await openJsonFileStorage(dir);
    try {
      assert.equal(loadedFrom(storage), source);
      assert.deepEqual(await answers(storage), scanned);
    } finally {
      await storage.close();
    }
  }

  it("is written at a clean close and used by the next start, with the same answers", async () => {
    assert.ok(await exists(snapshot));
    await reopenExpecting("snapshot");
    // Used again after a run without writes: nothing changed.
    await reopenExpecting("snapshot");
  });

  it("missing: every file is read, with the same answers", async () => {
    await rm(snapshot);
    await reopenExpecting("missing");
  });

  it("damaged or cut short: every file is read, with the same answers", async () => {
    const data = await readFile(snapshot);
    const flipped = Buffer.from(data);
    const at = Math.floor(data.length / 2);
    flipped[at] = (flipped[at] as number) ^ 0x04;
    await writeFile(snapshot, flipped);
    await reopenExpecting("corrupt");
    await writeFile(snapshot, data.subarray(0, data.length - 40));
    await reopenExpecting("corrupt");
    await writeFile(snapshot, "");
    await reopenExpecting("corrupt");
  });

  it("of another format version: every file is read", async () => {
    const text = await readFile(snapshot, "utf8");
    await writeFile(snapshot, text.replace('"version":2', '"version":999'));
    await reopenExpecting("version");
  });

  it("stale (a status file added or replaced behind its back): every file is read", async () => {
    // Beyond the file system's timestamp granularity, as a later change would be.
    await new Promise((r) => setTimeout(r, 50));
    const added = makeStatus({ id: "500", accountId: "2", tags: ["wren"] });
    await writeFile(join(dir, "statuses", "2", "500.json"), JSON.stringify(added));
    let storage = await openJsonFileStorage(dir);
    try {
      assert.equal(loadedFrom(storage), "stale");
      assert.deepEqual(await storage.statuses.get("500"), added);
      assert.equal(await storage.statuses.countByAccount("2"), countOf("2") + 1);
    } finally {
      await storage.close();
    }
    await new Promise((r) => setTimeout(r, 50));
    // An edit by rename, the way editors and rsync replace files.
    const edited = { ...added, deleted: true, deletedAt: "2026-01-03T00:00:00.000Z" };
    const temp = join(dir, "statuses", "2", "tmp-edit");
    await writeFile(temp, JSON.stringify(edited));
    await (await import("node:fs/promises")).rename(temp, join(dir, "statuses", "2", "500.json"));
    storage = await openJsonFileStorage(dir);
    try {
      assert.equal(loadedFrom(storage), "stale");
      assert.equal(await storage.statuses.countByAccount("2"), countOf("2"));
      assert.deepEqual(await answers(storage), scanned);
    } finally {
      await storage.close();
    }
  });

  it("lets the start skip sweeping statuses/ for temporary files only while it is valid", async () => {
    await new Promise((r) => setTimeout(r, 50));
    const inAccounts = join(dir, `.wren.json.1-1${TEMP_SUFFIX}`);
    await writeFile(inAccounts, "{");
    await reopenExpecting("snapshot");
    assert.equal(await exists(inAccounts), false);
    // A crash leaving one in statuses/ changed its folder's time: stale, swept, all read.
    const inStatuses = join(dir, "statuses", "1", `.9.json.1-2${TEMP_SUFFIX}`);
    await writeFile(inStatuses, "{");
    await reopenExpecting("stale");
    assert.equal(await exists(inStatuses), false);
  });

  it("stays while statuses are written: each write is journaled before its file", async () => {
    const storage = await openJsonFileStorage(dir);
    try {
      assert.equal(loadedFrom(storage), "snapshot");
      assert.equal(filesRead(storage), 0);
      const before = await readFile(snapshot);
      await storage.statuses.put(makeStatus({ id: "600", accountId: "1" }));
      assert.deepEqual(await readFile(snapshot), before);
      // The name, then the file's bytes (ADR 0065).
      const lines = await journalLines();
      assert.equal(lines.length, 1);
      assert.ok(lines[0]?.startsWith("+1/600\t"), lines[0]);
      const bytes = JSON.parse(lines[0]?.slice(lines[0].indexOf("\t") + 1) ?? "");
      // The file follows the answer (ADR 0084).
      await (storage.statuses as JsonFileStatusStore).filed();
      assert.deepEqual(bytes, await readFile(join(dir, "statuses", "1", "600.json"), "utf8"));
    } finally {
      await storage.close();
    }
    // A clean close leaves the snapshot alone, with no journal to replay.
    assert.deepEqual(await journalLines(), []);
    const reopened = await openJsonFileStorage(dir);
    try {
      assert.equal(loadedFrom(reopened), "snapshot");
      assert.equal((await reopened.statuses.get("600"))?.id, "600");
      assert.equal(await reopened.statuses.countByAccount("1"), countOf("1") + 1);
    } finally {
      await reopened.close();
    }
  });

  it("a failed journal append fails that write only: the next write tries again", async () => {
    const storage = await openJsonFileStorage(dir);
    try {
      // A non-empty directory where this run's journal goes makes its creation fail (also as
      // root, where modes would not), like a brief read-only episode of the disk.
      const header = JSON.parse((await readFile(snapshot, "utf8")).split("\n")[0] as string);
      const journal = join(dir, `statuses.journal.${header.journal + 1}`);
      await mkdir(journal);
      await writeFile(join(journal, "x"), "x");
      await assert.rejects(
        storage.statuses.put(makeStatus({ id: "650", accountId: "1" })),
        /Cannot journal status 650/,
      );
      assert.equal(await storage.statuses.get("650"), undefined);
      await rm(journal, { recursive: true });
      await storage.statuses.put(makeStatus({ id: "651", accountId: "1" }));
      assert.equal((await storage.statuses.get("651"))?.id, "651");
    } finally {
      await storage.close();
    }
  });

  it("after a crash: still used if nothing was written, gone if a status was", async () => {
    const crash = async (write: boolean) => {
      const child = spawnCode(`
        import { openJsonFileStorage } from ${JSON.stringify(moduleUrl("index.ts"))};
        import { makeStatus } from ${JSON.stringify(moduleUrl("../contract/fixtures.ts"))};
        const storage = await openJsonFileStorage(${JSON.stringify(dir)});
        if (${write}) await storage.statuses.put(makeStatus({ id: "700", accountId: "3", deleted: true }));
        console.log("done");
        setInterval(() => {}, 1000);
      `);
      await waitForLine(child, "done");
      const exited = new Promise((r) => child.on("exit", r));
      child.kill("SIGKILL");
      await exited;
    };
    await crash(false);
    await reopenExpecting("snapshot");
    await crash(true);
    const storage = await openJsonFileStorage(dir);
    try {
      // The snapshot plus the one file its journal names.
      assert.equal(loadedFrom(storage), "snapshot");
      assert.equal(filesRead(storage), 1);
      assert.equal((await storage.statuses.get("700"))?.deleted, true);
    } finally {
      await storage.close();
    }
  });
});

describe("status snapshot order", () => {
  it("is written in id order, whatever order the summaries come in", async () => {
    const root = await mkdtemp(join(tmpdir(), "wren-snapshot-order-"));
    try {
      await mkdir(join(root, "statuses"), { recursive: true });
      // Ids of different lengths too: id order is numeric, not the strings' order.
      const ids = ["905", "10", "1000", "99", "117674928927932416", "5"];
      await writeSnapshot(
        root,
        ids.map((id) => summarize(makeStatus({ id, accountId: "1" }))),
      );
      const read = await readSnapshot(root);
      assert.ok(read.ok);
      assert.deepEqual(
        [...read.table.rows()].map((row) => read.table.idOf(row)),
        ["5", "10", "99", "905", "1000", "117674928927932416"],
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("is complete and in id order when sorted in several slices (as after a full read)", async () => {
    const root = await mkdtemp(join(tmpdir(), "wren-snapshot-order-"));
    try {
      await mkdir(join(root, "statuses"), { recursive: true });
      // More than two slices of the sliced sort, in a scrambled (repeatable) order.
      const count = 70_001;
      const ids = Array.from({ length: count }, (_, n) => String(1 + ((n * 48_271) % count)));
      await writeSnapshot(
        root,
        ids.map((id) => summarize(makeStatus({ id, accountId: String(Number(id) % 7) }))),
      );
      const read = await readSnapshot(root);
      assert.ok(read.ok);
      const rows = [...read.table.rows()];
      assert.deepEqual(
        rows.map((row) => read.table.idOf(row)),
        Array.from({ length: count }, (_, n) => String(n + 1)),
      );
      assert.equal(read.table.accountOf(rows[41] as number), String(42 % 7));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
