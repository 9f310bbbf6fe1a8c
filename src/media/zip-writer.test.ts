import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { ZipWriter } from "./zip-writer.ts";

const run = promisify(execFile);

test("unzip reads back what the writer stored, compressed or not, with UTF-8 names", async () => {
  const dir = await mkdtemp(join(tmpdir(), "wren-zip-"));
  try {
    const zip = await ZipWriter.create(join(dir, "a.zip"), new Date("2026-03-04T05:06:08Z"));
    const text = "héllo ".repeat(1000);
    await zip.add("outbox.json", Buffer.from(text));
    await zip.add("media_attachments/ünï/a.bin", new Uint8Array([0, 1, 2, 255]), {
      compress: false,
    });
    await zip.add("empty.json", new Uint8Array());
    // A stream of chunks, deflated as they come: larger than deflate's buffers.
    async function* lines() {
      for (let i = 0; i < 20_000; i++) yield `{"n":${i},"text":"${"x".repeat(i % 97)}"},\n`;
    }
    await zip.add("streamed.json", lines());
    await zip.add("streamed-stored.bin", lines(), { compress: false });
    const size = await zip.finish();
    assert.equal((await readFile(join(dir, "a.zip"))).length, size);
    const { stdout } = await run("unzip", ["-t", join(dir, "a.zip")]);
    assert.match(stdout, /No errors detected/);
    await run("unzip", ["-q", join(dir, "a.zip"), "-d", join(dir, "out")]);
    assert.equal(await readFile(join(dir, "out", "outbox.json"), "utf8"), text);
    assert.deepEqual(
      [...(await readFile(join(dir, "out", "media_attachments", "ünï", "a.bin")))],
      [0, 1, 2, 255],
    );
    assert.equal((await readFile(join(dir, "out", "empty.json"))).length, 0);
    let expected = "";
    for await (const line of lines()) expected += line;
    assert.equal(await readFile(join(dir, "out", "streamed.json"), "utf8"), expected);
    assert.equal(await readFile(join(dir, "out", "streamed-stored.bin"), "utf8"), expected);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
