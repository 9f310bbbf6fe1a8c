import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { ZipWriter } from "./zip-writer.ts";

const run = promisify(execFile);

test("unzip reads back what the writer stored, compressed or not, with UTF-8 names", async () => {
  const dir = await mkdtemp(join(tmpdir(), "wren-zip-"));
  try {
    const zip = new ZipWriter(new Date("2026-03-04T05:06:08Z"));
    const text = "héllo ".repeat(1000);
    zip.add("outbox.json", Buffer.from(text));
    zip.add("media_attachments/ünï/a.bin", new Uint8Array([0, 1, 2, 255]), { compress: false });
    zip.add("empty.json", new Uint8Array());
    await writeFile(join(dir, "a.zip"), zip.finish());
    const { stdout } = await run("unzip", ["-t", join(dir, "a.zip")]);
    assert.match(stdout, /No errors detected/);
    await run("unzip", ["-q", join(dir, "a.zip"), "-d", join(dir, "out")]);
    assert.equal(await readFile(join(dir, "out", "outbox.json"), "utf8"), text);
    assert.deepEqual(
      [...(await readFile(join(dir, "out", "media_attachments", "ünï", "a.bin")))],
      [0, 1, 2, 255],
    );
    assert.equal((await readFile(join(dir, "out", "empty.json"))).length, 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
