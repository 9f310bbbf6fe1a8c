// `wren emoji …` and `wren announcement …` as an operator runs them, with the server stopped
// (the command opens the data directory itself) and running (through its admin socket, the
// image sent as bytes), including files a careless or hostile operator might hand over.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createUserWithToken } from "../helpers/accounts.ts";
import { animatedGif, solidPng } from "../helpers/images.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { runWren } from "./run-wren.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies of the API under test
type Json = any;

interface Files {
  png: string;
  gif: string;
  html: string;
  big: string;
  folder: string;
  fifo: string | null;
}

async function makeFiles(dir: string): Promise<Files> {
  const files: Files = {
    png: join(dir, "blob.png"),
    gif: join(dir, "party.gif"),
    html: join(dir, "evil.png"),
    big: join(dir, "big.png"),
    folder: join(dir, "folder.png"),
    fifo: join(dir, "fifo.png"),
  };
  await writeFile(files.png, await solidPng(24, 24));
  await writeFile(files.gif, await animatedGif(24, 24));
  await writeFile(files.html, "<!doctype html><html><script>alert(document.cookie)</script>");
  const png = await solidPng(24, 24);
  // A real PNG start followed by far more bytes than the limit.
  await writeFile(files.big, Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024, 1)]));
  await mkdir(files.folder);
  try {
    execFileSync("mkfifo", [files.fifo as string]);
  } catch {
    files.fifo = null;
  }
  return files;
}

async function storedEmojiFiles(dataDir: string): Promise<string[]> {
  const root = join(dataDir, "media", "emojis");
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const id of await readdir(root)) {
    for (const name of await readdir(join(root, id))) out.push(`${id}/${name}`);
  }
  return out;
}

/** The same scenario in both modes; `check` sees the result through the server when it runs. */
function scenario(
  mode: string,
  setup: () => Promise<{ env: Record<string, string>; dataDir: string; server?: TestServer }>,
) {
  describe(`wren emoji and announcement commands, ${mode}`, () => {
    let env: Record<string, string>;
    let dataDir: string;
    let server: TestServer | undefined;
    let files: Files;
    let scratch: string;

    before(async () => {
      ({ env, dataDir, server } = await setup());
      scratch = await mkdtemp(join(tmpdir(), "wren-cli-files-"));
      files = await makeFiles(scratch);
    });
    after(async () => {
      await server?.close();
      if (!server) await rm(dataDir, { recursive: true, force: true });
      await rm(scratch, { recursive: true, force: true });
    });

    it("emoji add stores the image and prints its URL", async () => {
      const png = await runWren(["emoji", "add", "blob", files.png], env);
      assert.equal(png.code, 0, png.stderr);
      assert.match(png.stdout, /^http:\/\/.+\/media\/emojis\/\d+\/[0-9a-f]{16}\.png\n$/);
      assert.match(png.stderr, /Added the custom emoji :blob:/);
      const gif = await runWren(["emoji", "add", "party", files.gif, "--category", "Fun"], env);
      assert.equal(gif.code, 0, gif.stderr);
      assert.match(gif.stdout, /\.gif\n$/);
      // Original and static version of each.
      assert.equal((await storedEmojiFiles(dataDir)).length, 4);
    });

    it("emoji list prints shortcode, category and URL", async () => {
      const result = await runWren(["emoji", "list"], env);
      assert.equal(result.code, 0, result.stderr);
      const rows = result.stdout
        .trim()
        .split("\n")
        .map((line) => line.split("\t"));
      assert.deepEqual(
        rows.map((r) => r.slice(0, 2)),
        [
          ["blob", ""],
          ["party", "Fun"],
        ],
      );
      assert.match(rows[0]?.[2] ?? "", /\.png$/);
    });

    it("refuses hostile files and bad shortcodes, storing nothing", async () => {
      const before = await storedEmojiFiles(dataDir);
      const cases: [string[], number, RegExp][] = [
        [["emoji", "add", "evil", files.html], 1, /Image content type is invalid/],
        [["emoji", "add", "huge", files.big], 1, /Image file size must be less than 256 KB/],
        [["emoji", "add", "bad-name", files.png], 1, /Shortcode is invalid/],
        [["emoji", "add", "x", files.png], 1, /Shortcode is too short/],
        [["emoji", "add", "blob", files.png], 1, /Shortcode has already been taken/],
        [["emoji", "add", "dir", files.folder], 2, /Not a regular file/],
        [["emoji", "add", "gone", join(scratch, "missing.png")], 2, /No such file/],
      ];
      if (files.fifo) cases.push([["emoji", "add", "fifo", files.fifo], 2, /Not a regular file/]);
      for (const [args, code, reason] of cases) {
        const result = await runWren(args, env);
        assert.equal(result.code, code, `${args.join(" ")}: ${result.stderr}`);
        assert.equal(result.stdout, "");
        assert.match(result.stderr, reason);
      }
      assert.deepEqual(await storedEmojiFiles(dataDir), before);
    });

    if (mode.includes("running")) {
      it("the running server serves the new emojis at once", async () => {
        assert.ok(server);
        const list = (await (await server.request("/api/v1/custom_emojis")).json()) as Json[];
        assert.deepEqual(
          list.map((e) => e.shortcode),
          ["blob", "party"],
        );
        const image = await fetch(list[0].url);
        assert.equal(image.status, 200);
        assert.equal(image.headers.get("content-type"), "image/png");
      });
    }

    it("emoji remove deletes the emoji and its files", async () => {
      const result = await runWren(["emoji", "remove", "party"], env);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /Removed the custom emoji :party:/);
      assert.equal((await storedEmojiFiles(dataDir)).length, 2);
      const again = await runWren(["emoji", "remove", "party"], env);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /No custom emoji :party:/);
      const list = await runWren(["emoji", "list"], env);
      assert.deepEqual(
        list.stdout
          .trim()
          .split("\n")
          .map((l) => l.split("\t")[0]),
        ["blob"],
      );
    });

    let announcementId: string;

    it("announcement create prints the id; list shows state, range and text", async () => {
      const now = await runWren(["announcement", "create", "Hello :blob: #welcome"], env);
      assert.equal(now.code, 0, now.stderr);
      assert.match(now.stdout, /^\d+\n$/);
      announcementId = now.stdout.trim();
      const later = await runWren(
        [
          "announcement",
          "create",
          "Party next year",
          "--starts-at",
          "2999-01-01T18:00:00Z",
          "--ends-at",
          "2999-01-02T00:00:00Z",
          "--all-day",
        ],
        env,
      );
      assert.equal(later.code, 0, later.stderr);
      const laterId = later.stdout.trim();

      const list = await runWren(["announcement", "list"], env);
      assert.equal(list.code, 0, list.stderr);
      assert.deepEqual(
        list.stdout
          .trim()
          .split("\n")
          .map((line) => line.split("\t")),
        [
          [
            laterId,
            "scheduled",
            "2999-01-01T18:00:00.000Z",
            "2999-01-02T00:00:00.000Z",
            "Party next year",
          ],
          [announcementId, "active", "-", "-", "Hello :blob: #welcome"],
        ],
      );
    });

    it("announcement create refuses a half range and a blank text", async () => {
      const half = await runWren(
        ["announcement", "create", "x", "--starts-at", "2999-01-01T00:00:00Z"],
        env,
      );
      assert.equal(half.code, 1);
      assert.match(half.stderr, /Ends at can't be blank/);
      const blank = await runWren(["announcement", "create", "  "], env);
      assert.equal(blank.code, 1);
      assert.match(blank.stderr, /Text can't be blank/);
      const bad = await runWren(
        ["announcement", "create", "x", "--starts-at", "soon", "--ends-at", "later"],
        env,
      );
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /Starts at is invalid/);
    });

    if (mode.includes("running")) {
      it("users of the running server see the active announcement with its emoji", async () => {
        assert.ok(server);
        const user = await createUserWithToken(server, "reader");
        const res = await server.request("/api/v1/announcements", { token: user.token });
        const body = (await res.json()) as Json[];
        assert.equal(res.status, 200);
        assert.deepEqual(
          body.map((a) => a.id),
          [announcementId],
        );
        assert.deepEqual(
          body[0].emojis.map((e: Json) => e.shortcode),
          ["blob"],
        );
      });
    }

    it("announcement delete removes it; an unknown id fails", async () => {
      const result = await runWren(["announcement", "delete", announcementId], env);
      assert.equal(result.code, 0, result.stderr);
      const list = await runWren(["announcement", "list"], env);
      assert.equal(list.stdout.includes(announcementId), false);
      const again = await runWren(["announcement", "delete", announcementId], env);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /Record not found/);
    });
  });
}

scenario("server stopped (direct storage)", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "wren-cli-emoji-"));
  return { env: { WREN_DATA_DIR: dataDir }, dataDir };
});

scenario("server running (admin socket)", async () => {
  const server = await startTestServer();
  return { env: { WREN_DATA_DIR: server.dataDir }, dataDir: server.dataDir, server };
});
