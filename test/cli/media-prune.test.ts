// `wren media prune` as an operator runs it: with the server stopped (the command opens the data
// directory itself, on the real clock) and running (through the admin socket, on the server's
// clock), printing one summary line; bad ages are a usage error.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { MediaAttachment } from "../../src/domain/media.ts";
import { mediaFileKeys } from "../../src/services/media/media-files.ts";
import { createUserWithToken } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { storeMedia } from "../media/stored-media.ts";
import { movableClock } from "../polls/helpers.ts";
import { runWren } from "./run-wren.ts";

const HOUR = 3600_000;

/** Whether every file of `media` is in the data directory (true) or none is (false). */
function onDisk(dataDir: string, media: MediaAttachment): boolean {
  const present = mediaFileKeys(media).map((key) => existsSync(join(dataDir, "media", key)));
  if (present.every(Boolean)) return true;
  if (!present.some(Boolean)) return false;
  throw new Error(`media ${media.id} half removed`);
}

describe("wren media prune, server stopped", () => {
  let dataDir: string;
  let old: MediaAttachment;
  let recent: MediaAttachment;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-cli-media-"));
    const server = await startTestServer({}, { dataDir });
    const alice = await createUserWithToken(server, "alice");
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    old = await storeMedia(server, alice.account.id, { createdAt: ago(48 * HOUR) });
    recent = await storeMedia(server, alice.account.id, { createdAt: ago(HOUR) });
    await server.close();
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it("removes uploads older than a day by default, then any age asked for", async () => {
    const env = { WREN_DATA_DIR: dataDir };
    const first = await runWren(["media", "prune"], env);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, "Removed 1 unattached upload (3 files) older than 24 hours.\n");
    assert.equal(onDisk(dataDir, old), false);
    assert.equal(onDisk(dataDir, recent), true);

    const second = await runWren(["media", "prune", "--older-than", "0.5"], env);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, "Removed 1 unattached upload (3 files) older than 0.5 hours.\n");
    assert.equal(onDisk(dataDir, recent), false);

    const third = await runWren(["media", "prune", "--older-than", "0"], env);
    assert.equal(third.stdout, "Removed 0 unattached uploads (0 files) older than 0 hours.\n");
  });

  it("refuses an age that is not a number of hours", async () => {
    for (const bad of ["abc", "-1", "1e3", ""]) {
      const result = await runWren(["media", "prune", "--older-than", bad], {
        WREN_DATA_DIR: dataDir,
      });
      assert.equal(result.code, 2, `${bad}: ${result.stderr}`);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /older-than/);
    }
  });
});

describe("wren media prune, server running", () => {
  let server: TestServer;
  const clock = movableClock();
  before(async () => {
    server = await startTestServer({}, { clock });
  });
  after(() => server.close());

  it("goes through the server, which judges ages by its own clock", async () => {
    const alice = await createUserWithToken(server, "alice");
    const upload = await storeMedia(server, alice.account.id);
    const attached = await storeMedia(server, alice.account.id, { statusId: "1" });
    clock.advance(3 * HOUR);
    const result = await runWren(["media", "prune", "--older-than", "2"], {
      WREN_DATA_DIR: server.dataDir,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "Removed 1 unattached upload (3 files) older than 2 hours.\n");
    assert.equal(await server.wren.ctx.storage.media.get(upload.id), undefined);
    assert.equal(onDisk(server.dataDir, upload), false);
    assert.ok(await server.wren.ctx.storage.media.get(attached.id));
    assert.equal(onDisk(server.dataDir, attached), true);
  });
});
