import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import {
  animatedGif,
  BLUE,
  EXIF_CAMERA,
  isClose,
  jpegWithExif,
  pixelAt,
  pngBomb,
  RED,
  solidPng,
  truncatedJpeg,
} from "../helpers/images.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const UPDATE = "/api/v1/accounts/update_credentials";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

function upload(
  server: TestServer,
  token: string,
  files: Record<string, { bytes: Uint8Array; name: string; type: string }>,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const [key, file] of Object.entries(files)) {
    form.append(key, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  }
  return server.request(UPDATE, { method: "PATCH", token, body: form });
}

async function fetchImage(url: string) {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Files under the media directory of the server, relative paths. */
async function mediaFiles(server: TestServer): Promise<string[]> {
  try {
    const entries = await readdir(join(server.dataDir, "media"), {
      recursive: true,
      withFileTypes: true,
    });
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(join(server.dataDir, "media").length + 1))
      .sort();
  } catch {
    return [];
  }
}

/** A raw GET whose path is sent exactly as written (fetch would normalise `..`). */
function rawGet(server: TestServer, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("avatar and header uploads", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice", ["read", "write"]);
  });
  after(() => server.close());

  it("orients, crops and strips a JPEG avatar; the stored file is served over HTTP", async () => {
    const res = await upload(server, alice.token, {
      avatar: { bytes: await jpegWithExif(), name: "holiday.jpg", type: "image/jpeg" },
    });
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("PATCH", UPDATE, 200, body);
    assert.match(
      body.avatar,
      new RegExp(`^${server.url}/media/accounts/avatars/${alice.account.id}/[0-9a-f]+\\.jpg$`),
    );
    assert.equal(body.avatar_static, body.avatar);

    const { res: file, bytes } = await fetchImage(body.avatar);
    assert.equal(file.headers.get("content-type"), "image/jpeg");
    assert.equal(file.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.equal(file.headers.get("x-content-type-options"), "nosniff");
    assert.equal(file.headers.get("content-security-policy"), "default-src 'none'; sandbox");
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.width, meta.height], [400, 400]);
    assert.equal(meta.exif, undefined, "EXIF (with GPS) is gone");
    assert.equal(meta.orientation, undefined);
    assert.equal(Buffer.from(bytes).includes(EXIF_CAMERA), false);
    // Displayed upright: the red half of the stored landscape is now on top.
    assert.ok(isClose(await pixelAt(bytes, 360, 40), RED));
    assert.ok(isClose(await pixelAt(bytes, 40, 360), BLUE));
  });

  it("crops a header to 1500x500 and removes the replaced file", async () => {
    const first: Json = await (
      await upload(server, alice.token, {
        header: { bytes: await solidPng(800, 800), name: "h.png", type: "image/png" },
      })
    ).json();
    const firstKey = first.header.slice(`${server.url}/media/`.length);
    assert.ok((await mediaFiles(server)).includes(firstKey));
    const { bytes } = await fetchImage(first.header);
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.width, meta.height, meta.format], [1500, 500, "png"]);

    const second: Json = await (
      await upload(server, alice.token, {
        header: { bytes: await solidPng(100, 100), name: "h2.png", type: "image/png" },
      })
    ).json();
    assert.notEqual(second.header, first.header);
    assert.equal((await mediaFiles(server)).includes(firstKey), false);
    assert.equal((await fetch(first.header)).status, 404);
  });

  it("keeps animated GIFs animated with a static PNG for avatar_static", async () => {
    const body: Json = await (
      await upload(server, alice.token, {
        avatar: { bytes: await animatedGif(), name: "wave.gif", type: "image/gif" },
      })
    ).json();
    assert.match(body.avatar, /\.gif$/);
    assert.match(body.avatar_static, /-static\.png$/);
    const animated = await fetchImage(body.avatar);
    assert.equal(animated.res.headers.get("content-type"), "image/gif");
    assert.equal((await sharp(animated.bytes, { animated: true }).metadata()).pages, 3);
    const still = await fetchImage(body.avatar_static);
    assert.equal(still.res.headers.get("content-type"), "image/png");
  });

  it("judges by content: PNG bytes named .jpg and typed image/jpeg are stored as PNG", async () => {
    const body: Json = await (
      await upload(server, alice.token, {
        avatar: { bytes: await solidPng(), name: "photo.jpg", type: "image/jpeg" },
      })
    ).json();
    assert.match(body.avatar, /\.png$/);
    const { res } = await fetchImage(body.avatar);
    assert.equal(res.headers.get("content-type"), "image/png");
  });

  it("refuses hostile and broken files with 422 and changes nothing", async () => {
    const before: Json = await (
      await server.request("/api/v1/accounts/verify_credentials", { token: alice.token })
    ).json();
    const filesBefore = await mediaFiles(server);
    const html = new TextEncoder().encode("<!doctype html><script>alert(document.cookie)</script>");
    const cases: [string, Uint8Array, string, RegExp][] = [
      ["page.png", html, "image/png", /Avatar content type is invalid/],
      ["cut.jpg", await truncatedJpeg(), "image/jpeg", /Avatar could not be read as an image/],
      ["bomb.png", pngBomb(), "image/png", /Avatar dimensions are too large/],
      ["empty.png", new Uint8Array(0), "image/png", /Avatar file is empty/],
    ];
    for (const [name, bytes, type, message] of cases) {
      const res = await upload(
        server,
        alice.token,
        { avatar: { bytes, name, type } },
        {
          display_name: "Should not stick",
        },
      );
      const body: Json = await res.json();
      assert.equal(res.status, 422, `${name}: ${JSON.stringify(body)}`);
      assertMatchesResponse("PATCH", UPDATE, 422, body);
      assert.match(body.error, message, name);
      assert.match(body.error, /^Validation failed: /);
    }
    const after: Json = await (
      await server.request("/api/v1/accounts/verify_credentials", { token: alice.token })
    ).json();
    assert.deepEqual(after, before);
    assert.deepEqual(await mediaFiles(server), filesBefore);
  });

  it("DELETE /api/v1/profile/avatar and /header restore the defaults and remove the files", async () => {
    await upload(server, alice.token, {
      avatar: { bytes: await solidPng(), name: "a.png", type: "image/png" },
      header: { bytes: await solidPng(), name: "h.png", type: "image/png" },
    });
    for (const kind of ["avatar", "header"] as const) {
      const path = `/api/v1/profile/${kind}`;
      const res = await server.request(path, { method: "DELETE", token: alice.token });
      const body: Json = await res.json();
      assert.equal(res.status, 200, JSON.stringify(body));
      assertMatchesResponse("DELETE", path, 200, body);
      assert.equal(body[kind], `${server.url}/${kind}s/original/missing.png`);
      // Deleting again is not an error.
      assert.equal(
        (await server.request(path, { method: "DELETE", token: alice.token })).status,
        200,
      );
    }
    assert.deepEqual(await mediaFiles(server), []);
    const reader = await createUserWithToken(server, "reader", ["read"]);
    const denied = await server.request("/api/v1/profile/avatar", {
      method: "DELETE",
      token: reader.token,
    });
    assert.equal(denied.status, 403);
    assert.equal(
      (await server.request("/api/v1/profile/header", { method: "DELETE" })).status,
      401,
    );
  });

  it("serves the default images as PNG", async () => {
    for (const path of ["/avatars/original/missing.png", "/headers/original/missing.png"]) {
      const res = await server.request(path);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "image/png");
      const meta = await sharp(new Uint8Array(await res.arrayBuffer())).metadata();
      assert.equal(meta.format, "png");
    }
  });

  it("refuses an upload over the configured size with Mastodon's wording", async () => {
    const small = await startTestServer({ WREN_MAX_IMAGE_BYTES: String(2 * 1024 * 1024) });
    try {
      const bob = await createUserWithToken(small, "bob", ["write"]);
      const big = await sharp({
        create: { width: 2000, height: 2000, channels: 3, background: "white" },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
      assert.ok(big.length > 2 * 1024 * 1024);
      const res = await upload(small, bob.token, {
        avatar: { bytes: big, name: "big.png", type: "image/png" },
      });
      const body: Json = await res.json();
      assert.equal(res.status, 422);
      assert.equal(body.error, "Validation failed: Avatar file size must be less than 2 MB");
    } finally {
      await small.close();
    }
  });
});

describe("GET /media/*", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("serves by stored extension only, never as HTML or an ActivityPub document", async () => {
    const files = server.wren.ctx.files;
    await files.put("test/page.html", new TextEncoder().encode("<script>1</script>"), "text/html");
    await files.put("test/doc.json", new TextEncoder().encode("{}"), "application/activity+json");
    for (const key of ["test/page.html", "test/doc.json"]) {
      const res = await server.request(`/media/${key}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/octet-stream");
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(res.headers.get("content-security-policy"), "default-src 'none'; sandbox");
      await res.arrayBuffer();
    }
  });

  it("answers 404 JSON for missing files, directories and traversal attempts", async () => {
    await server.wren.ctx.files.put("test/a.png", await solidPng(), "image/png");
    for (const path of [
      "/media/test/missing.png",
      "/media/test",
      "/media/",
      "/media/../../etc/passwd",
      "/media/test/../../config.json",
      "/media/test/%2e%2e/%2e%2e/etc/passwd",
      "/media/test%2fa.png",
      "/media/.hidden",
    ]) {
      const res = await rawGet(server, path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(JSON.parse(res.body), { error: "Record not found" }, path);
    }
    assert.equal((await server.request("/media/test/a.png")).status, 200);
  });
});
