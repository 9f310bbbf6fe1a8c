// How far the start-up check looks: the whole tree when the data directory itself was open to
// other users, only its top level when it was not (nothing deeper can be reached then), and
// through a data directory that is a symbolic link to where the data lives.

import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tightenDataDirectory } from "./tighten-modes.ts";

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** A data directory `dir` (mode `rootMode`) with a file on top and one two folders down. */
async function layout(dir: string, rootMode: number): Promise<void> {
  await mkdir(join(dir, "kv", "deep"), { recursive: true });
  await writeFile(join(dir, "top.json"), "{}");
  await writeFile(join(dir, "kv", "deep", "key.json"), "{}");
  await chmod(join(dir, "top.json"), 0o644);
  await chmod(join(dir, "kv", "deep", "key.json"), 0o644);
  await chmod(join(dir, "kv", "deep"), 0o755);
  await chmod(join(dir, "kv"), 0o755);
  await chmod(dir, rootMode);
}

describe("tightenDataDirectory", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "wren-tighten-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it("makes every entry private when the directory itself was open", async () => {
    const dir = join(root, "open");
    await layout(dir, 0o755);
    const result = await tightenDataDirectory(dir);
    assert.equal(result.fixed.length, 5);
    assert.deepEqual(result.failed, []);
    assert.equal(await modeOf(dir), 0o700);
    assert.equal(await modeOf(join(dir, "kv", "deep")), 0o700);
    assert.equal(await modeOf(join(dir, "kv", "deep", "key.json")), 0o600);
    assert.deepEqual((await tightenDataDirectory(dir)).fixed, [], "nothing left the second time");
  });

  it("looks only at the top level of a private directory", async () => {
    const dir = join(root, "closed");
    await layout(dir, 0o700);
    const result = await tightenDataDirectory(dir);
    assert.deepEqual(result.fixed.sort(), [join(dir, "kv"), join(dir, "top.json")]);
    assert.equal(await modeOf(join(dir, "kv", "deep", "key.json")), 0o644, "unreachable anyway");
  });

  it("follows a data directory that is a link to the real one", async () => {
    const real = join(root, "real");
    await layout(real, 0o755);
    const link = join(root, "link");
    await symlink(real, link);
    await tightenDataDirectory(link);
    assert.equal(await modeOf(real), 0o700);
    assert.equal(await modeOf(join(real, "kv", "deep", "key.json")), 0o600);
  });
});
