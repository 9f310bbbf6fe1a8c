// `wren doctor` on copies of one data directory: 0 and no problem line on a clean one; on a
// damaged one, one line per problem (each damaged file, the orphans it leaves, a file readable
// by others) and 1; --fix moves the damaged files to quarantine/ untouched and fixes the mode;
// status files a start would restore from the journal are checked as the journal has them;
// refused while a server holds the directory.

import assert from "node:assert/strict";
import {
  chmod,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  truncate,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { journalLine } from "../../src/storage/json-file/status-journal.ts";
import { SNAPSHOT_FILE } from "../../src/storage/json-file/status-snapshot.ts";
import { runWren } from "../cli/run-wren.ts";
import { freePort } from "../helpers/server.ts";
import { spawnWren, withOfflineServices } from "../helpers/wren-process.ts";
import { makeTemplate, type Template } from "./template.ts";

describe("wren doctor", { timeout: 240_000 }, () => {
  let template: Template;
  const dirs: string[] = [];
  const copy = async () => {
    const dir = await mkdtemp(join(tmpdir(), "wren-doctor-"));
    dirs.push(dir);
    await cp(template.dir, dir, { recursive: true });
    return dir;
  };
  before(async () => {
    template = await makeTemplate();
    dirs.push(template.dir);
  });
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("exits 0 on a clean data directory, with a plain progress line", async () => {
    const dir = await copy();
    const result = await runWren(["doctor"], { WREN_DATA_DIR: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /Checking: \d+ of \d+ files \(100%\)/);
    assert.match(result.stderr, /No problems in \d+ record files/);
  });

  it("reports each problem and exits 1; --fix moves damaged files aside untouched", async () => {
    const dir = await copy();
    const [, middle] = template.alicePosts as [string, string, string];
    const status = join(dir, "statuses", template.alice.id, `${middle}.json`);
    const account = join(dir, "accounts", `${template.bob.id}.json`);
    const stray = join(dir, "accounts", `copy-${template.alice.id}.json`);
    const kv = join(dir, "kv", `${"cd".repeat(32)}.json`);
    const open = join(dir, "accounts", `${template.alice.id}.json`);
    // The snapshot stays: the doctor must read the files, not trust it.
    await truncate(status, 30);
    await writeFile(account, "{ not json");
    await writeFile(stray, await readFile(open));
    await mkdir(join(dir, "kv"), { recursive: true });
    await writeFile(kv, Buffer.from([0xff, 0x00, 0x7b]));
    await chmod(open, 0o644);
    const damaged = new Map<string, Buffer>();
    for (const path of [status, account, stray, kv]) damaged.set(path, await readFile(path));

    const check = await runWren(["doctor"], { WREN_DATA_DIR: dir });
    assert.equal(check.code, 1, check.stderr);
    const lines = check.stdout.trimEnd().split("\n");
    const line = (kind: string, path: string) =>
      lines.find((l) => l.startsWith(`${kind}\t${path}:`));
    for (const path of damaged.keys())
      assert.ok(line("damaged", path), `${path}:\n${check.stdout}`);
    // bob's account is unreadable: his post and sign-in point at nothing.
    const bobPost = join(dir, "statuses", template.bob.id, `${template.bobPost}.json`);
    assert.ok(line("orphan", bobPost), check.stdout);
    assert.ok(line("orphan", join(dir, "users", `${template.bob.id}.json`)), check.stdout);
    assert.match(line("mode", open) ?? "", /mode 0644/);
    assert.match(check.stderr, /problems in \d+ record files/);
    // Nothing was changed by the check itself.
    for (const [path, bytes] of damaged) assert.deepEqual(await readFile(path), bytes);
    assert.equal((await stat(open)).mode & 0o777, 0o644);

    const fix = await runWren(["doctor", "--fix"], { WREN_DATA_DIR: dir });
    assert.equal(fix.code, 1, "the orphans remain");
    for (const [path, bytes] of damaged) {
      await assert.rejects(readFile(path), { code: "ENOENT" });
      const folder = join(dir, "quarantine", path.slice(dir.length + 1), "..");
      const name = path.split("/").at(-1) as string;
      const moved = (await readdir(folder)).filter((n) => n.startsWith(`${name}.`));
      assert.equal(moved.length, 1, `${path} in quarantine`);
      assert.deepEqual(await readFile(join(folder, moved[0] as string)), bytes);
      assert.match(line("damaged", path) ?? "", /./);
    }
    assert.equal((await stat(open)).mode & 0o777, 0o600);

    const after = await runWren(["doctor"], { WREN_DATA_DIR: dir });
    assert.equal(after.code, 1);
    assert.deepEqual(
      after.stdout
        .trimEnd()
        .split("\n")
        .map((l) => l.split("\t")[0]),
      ["orphan", "orphan"],
      after.stdout,
    );
  });

  it("checks status files as the journal has them, which the next start writes again", async () => {
    const dir = await copy();
    const [first, middle, last] = template.alicePosts as [string, string, string];
    const file = (id: string) => join(dir, "statuses", template.alice.id, `${id}.json`);
    const [head = ""] = (await readFile(join(dir, SNAPSHOT_FILE), "utf8")).split("\n");
    const { journal } = JSON.parse(head) as { journal: number };
    // A power cut after three acknowledged writes: the journal holds the files' bytes, the disk
    // an emptied file, a file cut short and no file at all (ADR 0065).
    const lines: string[] = [];
    for (const id of [first, middle, last]) {
      const bytes = await readFile(file(id), "utf8");
      lines.push(journalLine(`${template.alice.id}/${id}`, bytes));
    }
    const journalFile = join(dir, `statuses.journal.${journal}`);
    await writeFile(journalFile, `${lines.join("\n")}\n`);
    await chmod(journalFile, 0o600);
    const whole = await readFile(file(middle));
    await truncate(file(first), 0);
    await truncate(file(middle), 30);
    await rm(file(last));

    const check = await runWren(["doctor"], { WREN_DATA_DIR: dir });
    assert.equal(check.code, 0, `${check.stdout}${check.stderr}`);
    assert.equal(check.stdout, "", "no file reported damaged, no post orphaned");
    assert.match(check.stderr, /3 status files differ from their last line in the status journal/);
    assert.match(check.stderr, /No problems in \d+ record files/);
    // The check changed nothing; --fix moves nothing aside either.
    assert.equal((await readFile(file(middle))).length, 30);
    const fix = await runWren(["doctor", "--fix"], { WREN_DATA_DIR: dir });
    assert.equal(fix.code, 0, fix.stdout);
    await assert.rejects(readdir(join(dir, "quarantine", "statuses")), { code: "ENOENT" });

    // The next start writes them again: then the doctor finds them as they are.
    await withOfflineServices(dir, async () => {});
    assert.deepEqual(await readFile(file(middle)), whole);
    const after = await runWren(["doctor"], { WREN_DATA_DIR: dir });
    assert.equal(after.code, 0, after.stdout);
    assert.doesNotMatch(after.stderr, /differ from their last line/);
  });

  it("refuses to run while a server holds the data directory", async () => {
    const dir = await copy();
    const server = await spawnWren(dir, await freePort());
    try {
      const result = await runWren(["doctor"], { WREN_DATA_DIR: dir });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /in use by process \d+\. Stop the server first/);
    } finally {
      await server.kill("SIGTERM");
    }
  });
});
