import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { assertStreamsFiles } from "../../test/helpers/file-host-streams.ts";
import type { FileHost } from "./file-host.ts";
import { createLocalDirectoryHost, isSafeKey } from "./local-directory.ts";

describe("isSafeKey", () => {
  it("accepts server-made relative paths", () => {
    for (const key of ["a.png", "accounts/avatars/123/abc.png", "media/2024/x-y_z.mp4"]) {
      assert.ok(isSafeKey(key), key);
    }
  });

  it("rejects traversal, absolute paths and odd characters", () => {
    for (const key of [
      "",
      "/etc/passwd",
      "../x.png",
      "a/../b.png",
      "a/./b.png",
      "a//b.png",
      "a/.hidden",
      "a\\b.png",
      "a/b..png",
      "a/%2e%2e/b",
      "a/b c.png",
      "a/b\0.png",
      "a/b.png/",
      "a/b.png.wren-tmp",
      "é.png",
    ]) {
      assert.equal(isSafeKey(key), false, JSON.stringify(key));
    }
  });
});

describe("createLocalDirectoryHost", () => {
  let dir: string;
  let host: FileHost;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-files-"));
    host = createLocalDirectoryHost(dir, "https://social.example/media/");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("writes files under the directory, replacing atomically, leaving no temporary files", async () => {
    await host.put("a/b/c.png", new Uint8Array([1, 2, 3]), "image/png");
    await host.put("a/b/c.png", new Uint8Array([4, 5]), "image/png");
    assert.deepEqual([...(await readFile(join(dir, "a/b/c.png")))], [4, 5]);
    assert.deepEqual(await readdir(join(dir, "a/b")), ["c.png"]);
  });

  it("deletes files and ignores missing ones", async () => {
    await host.put("d.png", new Uint8Array([1]), "image/png");
    await host.delete("d.png");
    await host.delete("d.png");
    await assert.rejects(readFile(join(dir, "d.png")), { code: "ENOENT" });
  });

  it("builds public URLs and refuses unsafe keys everywhere", async () => {
    assert.equal(host.url("a/b/c.png"), "https://social.example/media/a/b/c.png");
    assert.throws(() => host.url("../x"));
    await assert.rejects(host.put("../escape.png", new Uint8Array([1]), "image/png"));
    await assert.rejects(host.delete("/etc/passwd"));
    await assert.rejects(readFile(join(dir, "../escape.png")), { code: "ENOENT" });
  });

  it("stores a local file streamed and serves it whole and by byte ranges", async () => {
    await assertStreamsFiles(host, "archives/7/export.zip");
    assert.deepEqual(await readdir(join(dir, "archives/7")), [], "no temporary file is left");
  });
});
