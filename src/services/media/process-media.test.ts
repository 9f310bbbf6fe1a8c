import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import sharp from "sharp";
import {
  EXIF_CAMERA,
  jpegWithExif,
  pngBomb,
  solidPng,
  truncatedJpeg,
} from "../../../test/helpers/images.ts";
import { mp4WithSound } from "../../../test/helpers/media-files.ts";
import { loadConfig } from "../../config/load.ts";
import type { MediaAttachment } from "../../domain/media.ts";
import { registerJobHandlers } from "../../jobs/handlers.ts";
import { createJobRunner, type JobRunner } from "../../jobs/runner.ts";
import type { FileHost } from "../../media/file-host.ts";
import { PROCESSING_FAILED, UNVERIFIED_TYPE } from "../../media/processing-error.ts";
import { openJsonFileStorage } from "../../storage/json-file/index.ts";
import type { Storage } from "../../storage/ports.ts";
import { createServices } from "../../wiring/services.ts";
import type { ServiceContext } from "../context.ts";
import { MEDIA_PROCESS_JOB, processMedia } from "./process-media.ts";

let dataDir: string;
let storage: Storage;
let ctx: ServiceContext;
let now: number;
const clock = { now: () => new Date(now) };

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "wren-process-media-"));
  now = Date.parse("2025-03-01T12:00:00Z");
  const config = loadConfig({
    WREN_DATA_DIR: dataDir,
    WREN_PUBLIC_URL: "http://127.0.0.1:9",
    WREN_LOG_LEVEL: "error",
  });
  storage = await openJsonFileStorage(dataDir);
  ctx = createServices(config, storage, { clock }).ctx;
});

afterEach(async () => {
  await storage.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Stores `bytes` as an upload and records an attachment in processing, as the upload use case does. */
async function upload(bytes: Uint8Array, contentType = "image/jpeg"): Promise<MediaAttachment> {
  const id = ctx.ids.next();
  const uploadKey = `media_attachments/${id}/upload-0123456789abcdef.bin`;
  await ctx.files.put(uploadKey, bytes, contentType);
  const at = clock.now().toISOString();
  const media: MediaAttachment = {
    id,
    accountId: "1",
    statusId: null,
    type: "image",
    state: "processing",
    failureReason: null,
    contentType,
    fileSize: bytes.byteLength,
    uploadKey,
    fileKey: null,
    previewKey: null,
    customPreviewKey: null,
    remoteUrl: null,
    description: null,
    focus: null,
    meta: null,
    blurhash: null,
    createdAt: at,
    updatedAt: at,
  };
  await storage.media.put(media);
  return media;
}

async function record(id: string): Promise<MediaAttachment> {
  const media = await storage.media.get(id);
  assert.ok(media, `attachment ${id} exists`);
  return media;
}

async function filesOf(id: string): Promise<string[]> {
  return (await readdir(join(dataDir, "media", "media_attachments", id))).sort();
}

describe("processMedia", () => {
  it("publishes an upright, metadata-free image and preview, then deletes the upload", async () => {
    const media = await upload(await jpegWithExif(400, 200));
    // The client described it while it was processing.
    await storage.media.put({ ...media, description: "A red and blue flag" });

    await processMedia(ctx, media.id);

    const done = await record(media.id);
    assert.equal(done.state, "ready");
    assert.equal(done.type, "image");
    assert.equal(done.failureReason, null);
    assert.equal(done.description, "A red and blue flag", "a field set meanwhile is kept");
    assert.equal(done.uploadKey, null);
    assert.equal(await ctx.files.get(media.uploadKey ?? ""), null, "the upload is deleted");
    assert.match(done.fileKey ?? "", /^media_attachments\/\d+\/original-[0-9a-f]{24}\.jpg$/);
    assert.match(done.previewKey ?? "", /^media_attachments\/\d+\/small-[0-9a-f]{24}\.jpg$/);
    assert.deepEqual(await filesOf(media.id), [
      (done.fileKey ?? "").split("/").pop(),
      (done.previewKey ?? "").split("/").pop(),
    ]);

    const file = await ctx.files.get(done.fileKey ?? "");
    assert.ok(file);
    const info = await sharp(file).metadata();
    assert.equal(info.exif, undefined);
    assert.ok(!Buffer.from(file).includes(Buffer.from(EXIF_CAMERA)));
    assert.equal(`${info.width}x${info.height}`, "200x400");
    assert.equal(done.contentType, "image/jpeg");
    assert.equal(done.fileSize, file.byteLength);
    assert.equal(done.meta?.original?.size, "200x400");
    assert.equal(done.meta?.small?.size, "200x400");
    assert.equal(done.blurhash?.length, 36);
  });

  it("is idempotent: a second run changes nothing", async () => {
    const media = await upload(await solidPng(80, 60), "image/png");
    await processMedia(ctx, media.id);
    const first = await record(media.id);
    now += 60_000;
    await processMedia(ctx, media.id);
    assert.deepEqual(await record(media.id), first);
    assert.equal((await filesOf(media.id)).length, 2);
  });

  it("goes by the bytes, not the recorded type: a PNG recorded as JPEG is published as PNG", async () => {
    const media = await upload(await solidPng(30, 30), "image/jpeg");
    await processMedia(ctx, media.id);
    const done = await record(media.id);
    assert.equal(done.state, "ready");
    assert.equal(done.contentType, "image/png");
    assert.match(done.fileKey ?? "", /\.png$/);
  });

  it("keeps a focus point the client set while processing", async () => {
    const media = await upload(await solidPng(30, 30), "image/png");
    await storage.media.put({
      ...media,
      focus: { x: 0.5, y: -0.25 },
      meta: { focus: { x: 0.5, y: -0.25 } },
    });
    await processMedia(ctx, media.id);
    const done = await record(media.id);
    assert.deepEqual(done.meta?.focus, { x: 0.5, y: -0.25 });
    assert.deepEqual(done.focus, { x: 0.5, y: -0.25 });
    assert.equal(done.meta?.original?.size, "30x30");
  });

  for (const [name, make, reason] of [
    ["a truncated JPEG", () => truncatedJpeg(), /damaged or truncated/],
    ["a decompression bomb", async () => pngBomb(30000, 30000), /too large/],
    [
      "HTML bytes",
      async () => Buffer.from("<!doctype html><html><script>alert(1)</script></html>"),
      new RegExp(UNVERIFIED_TYPE),
    ],
    ["an empty file", async () => Buffer.alloc(0), new RegExp(UNVERIFIED_TYPE)],
  ] as const) {
    it(`marks ${name} failed with a reason and removes every file`, async () => {
      const media = await upload(await make());
      await processMedia(ctx, media.id);
      const failed = await record(media.id);
      assert.equal(failed.state, "failed");
      assert.match(failed.failureReason ?? "", reason);
      assert.equal(failed.fileKey, null);
      assert.equal(failed.uploadKey, null);
      assert.deepEqual(await filesOf(media.id), []);
    });
  }

  it("marks an attachment whose upload is gone failed", async () => {
    const media = await upload(await solidPng());
    await ctx.files.delete(media.uploadKey ?? "");
    await processMedia(ctx, media.id);
    const failed = await record(media.id);
    assert.equal(failed.state, "failed");
    assert.match(failed.failureReason ?? "", /no longer available/);
  });

  it("does nothing for an unknown attachment", async () => {
    await processMedia(ctx, "999999");
    assert.equal(await storage.media.get("999999"), undefined);
  });

  it("publishes video through ffmpeg with a PNG preview", async () => {
    const media = await upload(await mp4WithSound("320x240", 25, 1), "video/mp4");
    await processMedia(ctx, media.id);
    const done = await record(media.id);
    assert.equal(done.state, "ready");
    assert.equal(done.type, "video");
    assert.match(done.fileKey ?? "", /original-[0-9a-f]{24}\.mp4$/);
    assert.match(done.previewKey ?? "", /small-[0-9a-f]{24}\.png$/);
    assert.equal(done.meta?.original?.frame_rate, "25/1");
    assert.equal(done.uploadKey, null);
  });
});

/** The real file host, with one operation made to fail while `failing` says so. */
function flakyFiles(files: FileHost, failing: (op: string, key: string) => boolean): FileHost {
  return {
    put: (key, bytes, type) =>
      failing("put", key) ? Promise.reject(new Error("disk full")) : files.put(key, bytes, type),
    get: (key) => files.get(key),
    putFile: (key, path, type) => files.putFile(key, path, type),
    read: (key, range) => files.read(key, range),
    delete: (key) =>
      failing("delete", key) ? Promise.reject(new Error("host away")) : files.delete(key),
    url: (key) => files.url(key),
  };
}

describe("the media.process job", () => {
  function runnerWith(files: FileHost): JobRunner {
    const runner = createJobRunner(storage.jobs, clock);
    registerJobHandlers(runner, { ...ctx, files });
    return runner;
  }

  it("retries a run that failed half-way and completes without leftovers", async () => {
    const media = await upload(await jpegWithExif(400, 200));
    // The processed file is stored, then the host fails on the preview (a crash mid-way).
    let failures = 1;
    const runner = runnerWith(
      flakyFiles(ctx.files, (op, key) => op === "put" && key.includes("/small-") && failures-- > 0),
    );
    await ctx.jobs.enqueue(MEDIA_PROCESS_JOB, { mediaId: media.id });

    assert.equal(await runner.runDue(), 1);
    const waiting = await record(media.id);
    assert.equal(waiting.state, "processing");
    const [job] = await storage.jobs.due(new Date(now + 3600_000).toISOString(), 10);
    assert.equal(job?.attempts, 1);
    assert.match(job?.lastError ?? "", /disk full/);

    now += 11_000;
    assert.equal(await runner.runDue(), 1);
    const done = await record(media.id);
    assert.equal(done.state, "ready");
    assert.equal(done.uploadKey, null);
    // The retry wrote the same keys: exactly the published file and its preview remain.
    assert.equal((await filesOf(media.id)).length, 2);
    assert.equal(await storage.jobs.nextRunAt(), null, "the job is done");
  });

  it("finishes deleting the upload when the crash came after the record was written", async () => {
    const media = await upload(await solidPng(40, 40), "image/png");
    let failures = 1;
    const runner = runnerWith(
      flakyFiles(
        ctx.files,
        (op, key) => op === "delete" && key === media.uploadKey && failures-- > 0,
      ),
    );
    await ctx.jobs.enqueue(MEDIA_PROCESS_JOB, { mediaId: media.id });
    await runner.runDue();
    const ready = await record(media.id);
    assert.equal(ready.state, "ready");
    assert.equal(ready.uploadKey, media.uploadKey, "the upload is still recorded");

    now += 11_000;
    await runner.runDue();
    const done = await record(media.id);
    assert.equal(done.uploadKey, null);
    assert.equal(await ctx.files.get(media.uploadKey ?? ""), null);
    assert.deepEqual({ ...done, uploadKey: ready.uploadKey }, ready);
  });

  it("marks the attachment failed when the retries run out", async () => {
    const media = await upload(await solidPng(40, 40), "image/png");
    const runner = runnerWith(flakyFiles(ctx.files, (op) => op === "put"));
    await ctx.jobs.enqueue(MEDIA_PROCESS_JOB, { mediaId: media.id });
    for (let attempt = 1; attempt <= 5; attempt++) {
      assert.equal(await runner.runDue(), 1, `attempt ${attempt} runs`);
      now += 3 * 3600_000;
    }
    assert.equal(await runner.runDue(), 0, "no sixth attempt");
    const failed = await record(media.id);
    assert.equal(failed.state, "failed");
    assert.equal(failed.failureReason, PROCESSING_FAILED);
    assert.equal(failed.uploadKey, null);
    const [job] = await storage.jobs.failed(10);
    assert.equal(job?.attempts, 5);
  });
});
