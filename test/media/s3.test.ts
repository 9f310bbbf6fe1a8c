// The S3 file host against a real S3-compatible server (s3rver) on loopback: the driver alone,
// then a whole Wren with WREN_MEDIA_DRIVER=s3 whose avatars, custom emojis and media attachments
// land in the bucket, are fetched from the bucket's public URL, and are removed from it again.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import type { FileHost } from "../../src/media/file-host.ts";
import { createS3Host, defaultS3PublicUrl } from "../../src/media/s3.ts";
import { addCustomEmoji } from "../../src/services/emojis/add-emoji.ts";
import { removeCustomEmoji } from "../../src/services/emojis/remove-emoji.ts";
import { pruneUnattachedMedia } from "../../src/services/media/prune-unattached.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertStreamsFiles } from "../helpers/file-host-streams.ts";
import { animatedGif, BLUE, RED, solidPng } from "../helpers/images.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import {
  S3RVER_KEY_ID,
  S3RVER_REGION,
  S3RVER_SECRET,
  startTestS3,
  type TestS3,
} from "../helpers/s3rver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type MovableClock, movableClock } from "../polls/helpers.ts";
import { isKept, storeMedia } from "./stored-media.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

const BUCKET = "wren-media";

function hostFor(s3: TestS3, overrides: Partial<Parameters<typeof createS3Host>[0]> = {}) {
  return createS3Host({
    endpoint: s3.endpoint,
    region: S3RVER_REGION,
    bucket: BUCKET,
    accessKeyId: S3RVER_KEY_ID,
    secretAccessKey: S3RVER_SECRET,
    forcePathStyle: true,
    ...overrides,
  });
}

function s3Env(s3: TestS3): Record<string, string> {
  return {
    WREN_MEDIA_DRIVER: "s3",
    WREN_S3_ENDPOINT: s3.endpoint,
    WREN_S3_REGION: S3RVER_REGION,
    WREN_S3_BUCKET: BUCKET,
    WREN_S3_ACCESS_KEY_ID: S3RVER_KEY_ID,
    WREN_S3_SECRET_ACCESS_KEY: S3RVER_SECRET,
  };
}

/** GET of a public URL: status, content type and bytes. */
async function fetchPublic(url: string) {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    cacheControl: res.headers.get("cache-control"),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

/** The file-host key behind a URL of the bucket. */
function keyOf(s3: TestS3, url: string): string {
  const prefix = `${s3.endpoint}/${BUCKET}/`;
  assert.ok(url.startsWith(prefix), `${url} is not in the bucket`);
  return url.slice(prefix.length);
}

/** Fetches a published file and checks it is exactly what the file host holds. */
async function assertPublished(s3: TestS3, host: FileHost, url: string, type: string) {
  const file = await fetchPublic(url);
  assert.equal(file.status, 200, url);
  assert.equal(file.type, type);
  assert.equal(file.cacheControl, "public, max-age=31536000, immutable");
  const stored = await host.get(keyOf(s3, url));
  assert.ok(stored);
  assert.deepEqual(file.bytes, stored);
  return file.bytes;
}

async function assertGone(s3: TestS3, host: FileHost, url: string) {
  assert.equal((await fetchPublic(url)).status, 404, url);
  assert.equal(await host.get(keyOf(s3, url)), null);
}

describe("S3 file host driver", () => {
  let s3: TestS3;
  let host: FileHost;
  before(async () => {
    s3 = await startTestS3();
    await s3.createBucket(BUCKET);
    host = hostFor(s3);
  });
  after(() => s3.close());

  it("stores bytes exactly, with their content type and a long cache lifetime", async () => {
    // Random binary over a megabyte: any upload framing stored inside the object would show.
    const bytes = new Uint8Array(randomBytes(1024 * 1024 + 13));
    await host.put("media_attachments/1/original-ab.png", bytes, "image/png");
    assert.equal(
      host.url("media_attachments/1/original-ab.png"),
      `${s3.endpoint}/${BUCKET}/media_attachments/1/original-ab.png`,
    );
    const served = await fetchPublic(host.url("media_attachments/1/original-ab.png"));
    assert.equal(served.status, 200);
    assert.equal(served.type, "image/png");
    assert.equal(served.cacheControl, "public, max-age=31536000, immutable");
    assert.deepEqual(served.bytes, bytes);
    assert.deepEqual(await host.get("media_attachments/1/original-ab.png"), bytes);

    // Overwriting a key replaces the object.
    await host.put("media_attachments/1/original-ab.png", new Uint8Array([1, 2, 3]), "image/webp");
    const again = await fetchPublic(host.url("media_attachments/1/original-ab.png"));
    assert.deepEqual([...again.bytes], [1, 2, 3]);
    assert.equal(again.type, "image/webp");
  });

  it("answers null for a missing key and deletes idempotently", async () => {
    assert.equal(await host.get("media_attachments/404/none.png"), null);
    await host.delete("media_attachments/404/none.png");

    await host.put("emojis/2/blob.png", new Uint8Array([9, 9]), "image/png");
    await host.delete("emojis/2/blob.png");
    assert.equal(await host.get("emojis/2/blob.png"), null);
    assert.equal((await fetchPublic(host.url("emojis/2/blob.png"))).status, 404);
    await host.delete("emojis/2/blob.png");
  });

  it("refuses keys the server would never make, before asking the service", async () => {
    for (const key of ["../escape.png", "/absolute.png", "a//b.png", "", ".hidden"]) {
      await assert.rejects(host.put(key, new Uint8Array([1]), "image/png"), /Unsafe file key/);
      await assert.rejects(host.get(key), /Unsafe file key/);
      assert.throws(() => host.url(key), /Unsafe file key/);
    }
  });

  it("stores a local file as one streamed upload and serves it whole and by byte ranges", async () => {
    await assertStreamsFiles(host, "archives/7/export.zip");
  });

  it("fails loudly with an unknown access key or a missing bucket", async () => {
    // s3rver knows its own key id only (it does not verify SigV4 signatures themselves).
    const wrongKey = hostFor(s3, { accessKeyId: "SOMEONE-ELSE" });
    await assert.rejects(wrongKey.put("x/y.png", new Uint8Array([1]), "image/png"));
    const noBucket = hostFor(s3, { bucket: "no-such-bucket" });
    await assert.rejects(noBucket.put("x/y.png", new Uint8Array([1]), "image/png"));
    assert.equal(await host.get("x/y.png"), null);
  });

  it("builds public URLs for both addressing styles, or from the configured base", () => {
    assert.equal(
      defaultS3PublicUrl("https://s3.example.com/", "media", true),
      "https://s3.example.com/media",
    );
    assert.equal(
      defaultS3PublicUrl("https://s3.example.com", "media", false),
      "https://media.s3.example.com",
    );
    const cdn = hostFor(s3, { publicUrl: "https://cdn.example/wren/" });
    assert.equal(
      cdn.url("accounts/avatars/1/a.png"),
      "https://cdn.example/wren/accounts/avatars/1/a.png",
    );
  });
});

describe("Wren with the S3 media driver", () => {
  let s3: TestS3;
  let server: TestServer;
  let clock: MovableClock;
  let host: FileHost;
  let alice: TestUser;
  before(async () => {
    s3 = await startTestS3();
    await s3.createBucket(BUCKET);
    host = hostFor(s3);
    clock = movableClock();
    server = await startTestServer(s3Env(s3), { clock });
    alice = await createUserWithToken(server, "alice", ["read", "write"]);
  });
  after(async () => {
    await server.close();
    await s3.close();
  });

  async function updateCredentials(field: string, bytes: Uint8Array) {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(bytes)], { type: "image/png" }), "me.png");
    const res = await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      body: form,
    });
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("PATCH", "/api/v1/accounts/update_credentials", 200, body);
    return body;
  }

  it("stores avatars and headers in the bucket and removes replaced ones", async () => {
    const first = await updateCredentials("avatar", await solidPng(300, 300, RED));
    assert.match(first.avatar, new RegExp(`^${s3.endpoint}/${BUCKET}/accounts/avatars/`));
    const bytes = await assertPublished(s3, host, first.avatar, "image/png");
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.width, meta.height], [400, 400]);

    const header = await updateCredentials("header", await solidPng(600, 200, BLUE));
    await assertPublished(s3, host, header.header, "image/png");

    // A new avatar replaces the old one's object; removing it deletes the new one too.
    const second = await updateCredentials("avatar", await solidPng(100, 100, BLUE));
    assert.notEqual(second.avatar, first.avatar);
    await assertPublished(s3, host, second.avatar, "image/png");
    await assertGone(s3, host, first.avatar);
    const removed = await server.request("/api/v1/profile/avatar", {
      method: "DELETE",
      token: alice.token,
    });
    assert.equal(removed.status, 200);
    await assertGone(s3, host, second.avatar);

    // Nothing went to the local media directory, and Wren does not serve /media itself.
    assert.equal(existsSync(join(server.dataDir, "media")), false);
    const key = keyOf(s3, header.header);
    assert.equal((await server.request(`/media/${key}`)).status, 404);
  });

  it("stores custom emojis in the bucket and removes them with the emoji", async () => {
    const emoji = await addCustomEmoji(server.wren.ctx, {
      shortcode: "party",
      image: await animatedGif(32, 32),
      category: null,
    });
    const list = (await (await server.request("/api/v1/custom_emojis")).json()) as Json[];
    const listed = list.find((e) => e.shortcode === "party");
    assert.ok(listed);
    assert.equal(listed.url, host.url(emoji.imageKey));
    await assertPublished(s3, host, listed.url, "image/gif");
    await assertPublished(s3, host, listed.static_url, "image/png");

    await removeCustomEmoji(server.wren.ctx, "party");
    await assertGone(s3, host, listed.url);
    await assertGone(s3, host, listed.static_url);
  });

  it("stores media attachments in the bucket and deletes them", async () => {
    const form = new FormData();
    form.append("file", new Blob([await solidPng(800, 600, RED)], { type: "image/png" }), "a.png");
    form.append("description", "A red rectangle");
    const res = await server.request("/api/v1/media", {
      method: "POST",
      token: alice.token,
      body: form,
    });
    const media: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(media));
    assertMatchesResponse("POST", "/api/v1/media", 200, media);
    const original = await assertPublished(s3, host, media.url, "image/png");
    assert.deepEqual(
      [(await sharp(original).metadata()).width, (await sharp(original).metadata()).height],
      [800, 600],
    );
    const previewType = (await fetchPublic(media.preview_url)).type ?? "";
    assert.match(previewType, /^image\//);
    await assertPublished(s3, host, media.preview_url, previewType);

    const deleted = await server.request(`/api/v1/media/${media.id}`, {
      method: "DELETE",
      token: alice.token,
    });
    assert.equal(deleted.status, 200);
    await assertGone(s3, host, media.url);
    await assertGone(s3, host, media.preview_url);
  });

  it("removes unattached uploads from the bucket after a day", async () => {
    const upload = await storeMedia(server, alice.account.id);
    assert.equal(await isKept(server, upload), true);
    clock.advance(25 * 3600_000);
    await server.wren.jobs.runDue();
    assert.equal(await isKept(server, upload), false);
  });

  it("keeps the records when the bucket cannot be reached, to remove them later", async () => {
    const upload = await storeMedia(server, alice.account.id);
    clock.advance(25 * 3600_000);
    await s3.stop();
    try {
      const summary = await pruneUnattachedMedia(server.wren.ctx);
      assert.deepEqual(summary, { removed: 0, files: 0, failed: 1 });
      assert.ok(await server.wren.ctx.storage.media.get(upload.id));
    } finally {
      await s3.resume();
    }
    assert.deepEqual(await pruneUnattachedMedia(server.wren.ctx), {
      removed: 1,
      files: 3,
      failed: 0,
    });
    assert.equal(await isKept(server, upload), false);
  });
});

describe("Wren with a media public URL of its own", () => {
  let s3: TestS3;
  let server: TestServer;
  before(async () => {
    s3 = await startTestS3();
    await s3.createBucket(BUCKET);
    server = await startTestServer({
      ...s3Env(s3),
      WREN_MEDIA_PUBLIC_URL: "https://media.social.example/files/",
    });
  });
  after(async () => {
    await server.close();
    await s3.close();
  });

  it("publishes URLs under that base while storing in the bucket", async () => {
    const user = await createUserWithToken(server, "bob", ["read", "write"]);
    const form = new FormData();
    form.append("avatar", new Blob([await solidPng(64, 64)], { type: "image/png" }), "a.png");
    const res = await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: user.token,
      body: form,
    });
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    const prefix = "https://media.social.example/files/";
    assert.ok(body.avatar.startsWith(prefix), body.avatar);
    const key = body.avatar.slice(prefix.length);
    assert.ok(await hostFor(s3).get(key), "the file is in the bucket");
  });
});
