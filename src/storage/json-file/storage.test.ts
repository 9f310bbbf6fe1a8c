// json-file specifics the shared contract cannot see: the files on disk, start-up recovery and
// damaged files set aside, and how concurrent writes of one record resolve.

import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  makeAccount,
  makeApp,
  makeCode,
  makeStatus,
  makeToken,
  makeUser,
} from "../contract/fixtures.ts";
import { TEMP_SUFFIX } from "./durable-writer.ts";
import { openJsonFileStorage } from "./index.ts";
import type { JsonFileStatusStore } from "./status-store.ts";

const pretty = (record: unknown) => `${JSON.stringify(record, null, 2)}\n`;

describe("json-file storage", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-json-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const read = (...path: string[]) => readFile(join(dir, ...path), "utf8");

  it("keeps one pretty-printed file per record in the documented layout", async () => {
    const storage = await openJsonFileStorage(dir);
    const account = makeAccount({ id: "1" });
    const user = makeUser({ accountId: "1" });
    const app = makeApp({ id: "2" });
    const token = makeToken({ id: "3" });
    const code = makeCode({ codeHash: "abc123" });
    const status = makeStatus({ id: "10", accountId: "1" });
    await Promise.all([
      storage.accounts.put(account),
      storage.users.put(user),
      storage.apps.put(app),
      storage.tokens.put(token),
      storage.authorizationCodes.put(code),
      storage.statuses.put(status),
    ]);
    // A status's file is written just after its write is acknowledged (ADR 0084).
    const filed = () => (storage.statuses as JsonFileStatusStore).filed();
    await filed();
    assert.equal(await read("accounts", "1.json"), pretty(account));
    assert.equal(await read("users", "1.json"), pretty(user));
    assert.equal(await read("apps", "2.json"), pretty(app));
    assert.equal(await read("tokens", "3.json"), pretty(token));
    assert.equal(await read("authorization-codes", "abc123.json"), pretty(code));
    assert.equal(await read("statuses", "1", "10.json"), pretty(status));

    // Deleting a status keeps its file, with the flag set.
    await storage.statuses.put({ ...status, deleted: true, deletedAt: "2025-01-03T00:00:00.000Z" });
    await filed();
    assert.equal(JSON.parse(await read("statuses", "1", "10.json")).deleted, true);

    // A taken code's file is gone.
    await storage.authorizationCodes.take("abc123");
    assert.deepEqual(await readdir(join(dir, "authorization-codes")), []);

    assert.deepEqual((await readdir(dir)).sort(), [
      "accounts",
      "apps",
      "authorization-codes",
      "statuses",
      // Status files written since the last snapshot (ADR 11).
      "statuses.journal.1",
      "tokens",
      "users",
      "wren.lock",
    ]);
    await storage.close();
    assert.ok(!(await readdir(dir)).includes("wren.lock"));
  });

  it("ends with the last of concurrent puts of one record, in memory and on disk", async () => {
    const storage = await openJsonFileStorage(dir);
    const puts = Array.from({ length: 50 }, (_, i) =>
      storage.accounts.put(makeAccount({ id: "1", displayName: `v${i}` })),
    );
    // Mid-flight, readers still see nothing: the record is not durable yet.
    assert.equal(await storage.accounts.get("1"), undefined);
    await Promise.all(puts);
    assert.equal((await storage.accounts.get("1"))?.displayName, "v49");
    assert.equal(JSON.parse(await read("accounts", "1.json")).displayName, "v49");
    await storage.close();
    const again = await openJsonFileStorage(dir);
    assert.equal((await again.accounts.get("1"))?.displayName, "v49");
    await again.close();
  });

  it("removes temporary files left by a crash when opening", async () => {
    const first = await openJsonFileStorage(dir);
    await first.statuses.put(makeStatus({ id: "10", accountId: "1" }));
    await first.close();
    const leftovers = [
      join(dir, "accounts", `.1.json.999-1${TEMP_SUFFIX}`),
      join(dir, "statuses", "1", `.11.json.999-2${TEMP_SUFFIX}`),
    ];
    await mkdir(join(dir, "accounts"));
    for (const path of leftovers) await writeFile(path, '{"id": "1", "userna');

    const storage = await openJsonFileStorage(dir);
    assert.deepEqual(await readdir(join(dir, "accounts")), []);
    assert.deepEqual(await readdir(join(dir, "statuses", "1")), ["10.json"]);
    assert.equal(await storage.accounts.get("1"), undefined);
    assert.equal((await storage.statuses.get("10"))?.id, "10");
    await storage.close();
  });

  describe("opens despite a bad record file: the record is left out, the file moved aside", () => {
    const cases: [string, string[], string | Buffer, () => Promise<unknown>][] = [
      [
        "truncated JSON",
        ["accounts", "1.json"],
        '{\n  "id": "1",\n  "userna',
        async () => (await openedStorage).accounts.get("1"),
      ],
      ["not an object", ["users", "1.json"], "[1, 2]", async () => undefined],
      [
        "a record in the wrong file (a stray copy)",
        ["accounts", "copy-3.json"],
        pretty(makeAccount({ id: "3" })),
        async () => (await openedStorage).accounts.get("3"),
      ],
      [
        "a status under another account",
        ["statuses", "1", "10.json"],
        pretty(makeStatus({ id: "10", accountId: "2" })),
        async () => (await openedStorage).statuses.get("10"),
      ],
      [
        "a status that is not one",
        ["statuses", "1", "11.json"],
        pretty({ id: "11", accountId: "1" }),
        async () => (await openedStorage).statuses.get("11"),
      ],
      [
        "bytes that are not UTF-8",
        ["kv", "ab.json"],
        Buffer.from([0x7b, 0xff, 0xfe]),
        async () => undefined,
      ],
    ];
    let openedStorage: Promise<Awaited<ReturnType<typeof openJsonFileStorage>>>;
    for (const [what, path, content, lookup] of cases) {
      it(what, async () => {
        const file = join(dir, ...path);
        await mkdir(join(file, ".."), { recursive: true });
        await writeFile(file, content);
        openedStorage = openJsonFileStorage(dir);
        const storage = await openedStorage;
        try {
          assert.equal(await lookup(), undefined);
          const aside = join(dir, "quarantine", ...path.slice(0, -1));
          const [moved] = await readdir(aside);
          assert.match(moved ?? "", new RegExp(`^${path.at(-1)}\\.\\d{4}-`));
          const kept = await readFile(join(aside, moved as string));
          assert.deepEqual(kept, Buffer.from(content));
          await assert.rejects(readFile(file), { code: "ENOENT" });
        } finally {
          await storage.close();
        }
      });
    }
  });

  it("refuses a status moving to another account, and unsafe ids", async () => {
    const storage = await openJsonFileStorage(dir);
    await storage.statuses.put(makeStatus({ id: "10", accountId: "1" }));
    await assert.rejects(storage.statuses.put(makeStatus({ id: "10", accountId: "2" })), /move/);
    assert.equal((await storage.statuses.get("10"))?.accountId, "1");
    await assert.rejects(storage.accounts.put(makeAccount({ id: "../escape" })), /Unsafe/);
    await assert.rejects(storage.authorizationCodes.put(makeCode({ codeHash: "a/b" })), /Unsafe/);
    await (storage.statuses as JsonFileStatusStore).filed();
    assert.deepEqual((await readdir(dir)).sort(), ["statuses", "statuses.journal.1", "wren.lock"]);
    await storage.close();
  });

  it("refuses writes after close", async () => {
    const storage = await openJsonFileStorage(dir);
    await storage.close();
    await assert.rejects(storage.accounts.put(makeAccount({ id: "1" })), /closed/);
    await storage.close();
  });
});
