// The account archive is made on disk and handed to the file host streamed: no media file is read
// whole, the zip goes up from a file, and nothing is offered until the file host has all of it.
// A build that fails (the file host away, a crash) leaves no partial file behind and no archive
// to download; the job's retry builds it again.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import type { FileHost } from "../../src/media/file-host.ts";
import { findArchive } from "../../src/services/archives/archive-records.ts";
import { archiveStream, buildArchive } from "../../src/services/archives/build-archive.ts";
import { requestArchive } from "../../src/services/archives/request-archive.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { seedArchiveAccount } from "../helpers/archive-account.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const run = promisify(execFile);
const STATUSES = 450;
const MEDIA = 12;
const FILE_BYTES = 256 * 1024;

/** The real file host, recording its calls; `putFile` fails while `failing` says so. */
function recordingFiles(files: FileHost, failing: () => boolean) {
  const calls: { op: string; key: string; path?: string }[] = [];
  const host: FileHost = {
    put: (key, bytes, type) => {
      calls.push({ op: "put", key });
      return files.put(key, bytes, type);
    },
    putFile: (key, path, type) => {
      calls.push({ op: "putFile", key, path });
      return failing()
        ? Promise.reject(new Error("file host away"))
        : files.putFile(key, path, type);
    },
    get: (key) => {
      calls.push({ op: "get", key });
      return files.get(key);
    },
    read: (key, range) => {
      calls.push({ op: "read", key });
      return files.read(key, range);
    },
    delete: (key) => files.delete(key),
    url: (key) => files.url(key),
  };
  return { host, calls };
}

describe("account archives built on disk and streamed", () => {
  let server: TestServer;
  let alice: TestUser;
  let mediaKeys: string[];

  before(async () => {
    server = await startTestServer();
    // The test builds the archives itself.
    await server.wren.jobs.stop();
    alice = await createUserWithToken(server, "alice");
    ({ mediaKeys } = await seedArchiveAccount(server.wren.ctx, alice.account.id, {
      statuses: STATUSES,
      media: MEDIA,
      fileBytes: FILE_BYTES,
    }));
  });
  after(() => server.close());

  const scratch = () => join(server.dataDir, "scratch", "archives");

  it("offers nothing when the upload fails, leaves no partial file, and builds on retry", async () => {
    let fail = true;
    const { host, calls } = recordingFiles(server.wren.ctx.files, () => fail);
    const ctx: ServiceContext = { ...server.wren.ctx, files: host };
    const { id } = await requestArchive(ctx, alice.account.id, { byOperator: true });

    await assert.rejects(buildArchive(ctx, alice.account.id, id), /file host away/);
    const broken = await findArchive(ctx, alice.account.id, id);
    assert.equal(broken?.state, "building");
    assert.equal(await archiveStream(ctx, broken as NonNullable<typeof broken>), null);
    assert.deepEqual(await readdir(scratch()), []);
    const [upload] = calls.filter((c) => c.op === "putFile");
    assert.ok(upload?.path?.startsWith(scratch()), "the zip goes up from the scratch directory");

    fail = false;
    const built = await buildArchive(ctx, alice.account.id, id);
    assert.equal(built?.state, "ready");
    // The retry writes the key the record named from the start.
    assert.equal(built?.fileKey, upload?.key);
    assert.deepEqual(await readdir(scratch()), []);
  });

  it("reads media streamed, never whole, and uploads the zip from a file", async () => {
    const { host, calls } = recordingFiles(server.wren.ctx.files, () => false);
    const ctx: ServiceContext = { ...server.wren.ctx, files: host };
    const { id } = await requestArchive(ctx, alice.account.id, { byOperator: true });
    const built = await buildArchive(ctx, alice.account.id, id);
    assert.equal(built?.state, "ready");
    assert.equal(built?.done, STATUSES + MEDIA);
    // No whole-file reads or writes: every media file was read as a stream, the zip put as a file.
    assert.deepEqual(
      calls.filter((c) => c.op === "get" || c.op === "put"),
      [],
    );
    assert.deepEqual(
      calls
        .filter((c) => c.op === "read")
        .map((c) => c.key)
        .sort(),
      [...mediaKeys].sort(),
    );
    assert.equal(calls.filter((c) => c.op === "putFile").length, 1);

    // Served streamed with its length; the zip is whole and holds every post and file.
    const file = await archiveStream(ctx, built as NonNullable<typeof built>);
    assert.ok(file);
    assert.equal(file.size, built?.size);
    const dir = await mkdtemp(join(tmpdir(), "wren-archive-"));
    try {
      const chunks: Uint8Array[] = [];
      for await (const chunk of file.body) chunks.push(chunk);
      await writeFile(join(dir, "a.zip"), Buffer.concat(chunks));
      const { stdout } = await run("unzip", ["-t", join(dir, "a.zip")]);
      assert.match(stdout, /No errors detected/);
      await run("unzip", ["-q", join(dir, "a.zip"), "-d", join(dir, "out")]);
      const outbox = JSON.parse(await readFile(join(dir, "out", "outbox.json"), "utf8"));
      assert.equal(outbox.type, "OrderedCollection");
      assert.equal(outbox.totalItems, STATUSES);
      assert.equal(outbox.orderedItems.length, STATUSES);
      // One attachment each (compact JSON-LD makes a one-item list the item), its URL a path
      // into the archive.
      const urls = outbox.orderedItems
        .map((item: { object?: { attachment?: { url?: string } } }) => item.object?.attachment?.url)
        .filter((url: string | undefined) => url !== undefined)
        .sort();
      const paths = mediaKeys.map((key) => `media_attachments/${key}`);
      assert.deepEqual(urls, paths.sort());
      for (const path of paths) {
        assert.equal((await readFile(join(dir, "out", path))).length, FILE_BYTES);
      }
      const likes = JSON.parse(await readFile(join(dir, "out", "likes.json"), "utf8"));
      assert.deepEqual(likes.orderedItems, []);
      assert.equal(likes.totalItems, 0);
      // A range reads only that part (what `wren archive` asks chunk by chunk).
      const part = await archiveStream(ctx, built as NonNullable<typeof built>, {
        start: 10,
        length: 100,
      });
      const partChunks: Uint8Array[] = [];
      for await (const chunk of part?.body ?? []) partChunks.push(chunk);
      assert.deepEqual(Buffer.concat(partChunks), Buffer.concat(chunks).subarray(10, 110));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
