// The data directory holds actors' private keys (kv/), password hashes (users/), token hashes and
// uploads: nothing in it may be readable by another user of the machine. A real `wren` (one-off
// commands, then `wren serve` with a media upload that goes through ffmpeg) writes a typical
// directory, and every entry in it is looked at; a directory left open by an older Wren is made
// private at the next start, which says so.

import assert from "node:assert/strict";
import { chmod, lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runWren, serveEnv, startServe } from "../cli/run-wren.ts";
import { solidPng } from "../helpers/images.ts";
import { wavTone } from "../media/api.ts";

const LISTENING = /Wren is listening on (http:\/\/\S+)\n/;

interface Entry {
  path: string;
  kind: "file" | "folder" | "socket" | "other";
  mode: number;
}

/** Every file and folder under `root` (and `root` itself), with its permission bits. */
async function entriesUnder(root: string): Promise<Entry[]> {
  const found: Entry[] = [];
  const visit = async (path: string) => {
    const stats = await lstat(path);
    const kind = stats.isFile()
      ? "file"
      : stats.isDirectory()
        ? "folder"
        : stats.isSocket()
          ? "socket"
          : "other";
    found.push({ path, kind, mode: stats.mode & 0o777 });
    if (kind === "folder") {
      for (const name of await readdir(path)) await visit(join(path, name));
    }
  };
  await visit(root);
  return found;
}

/** Fails naming every entry that is not owner-only (files 0600, folders 0700, sockets 0600). */
async function assertPrivate(root: string): Promise<Entry[]> {
  const entries = await entriesUnder(root);
  const expected = { file: 0o600, folder: 0o700, socket: 0o600, other: 0o600 } as const;
  const wrong = entries
    .filter((e) => e.mode !== expected[e.kind])
    .map((e) => `${e.kind} ${e.mode.toString(8)} ${e.path}`);
  assert.deepEqual(wrong, [], `not private:\n${wrong.join("\n")}`);
  return entries;
}

/** Opens every folder to the group and others, as a Wren that used the umask left them. */
async function loosen(root: string): Promise<void> {
  for (const entry of await entriesUnder(root)) {
    if (entry.kind === "file") await chmod(entry.path, 0o644);
    if (entry.kind === "folder") await chmod(entry.path, 0o755);
  }
}

describe("data directory modes", () => {
  let root: string;
  let dataDir: string;
  let env: Record<string, string>;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "wren-modes-"));
    dataDir = join(root, "data");
    env = await serveEnv(dataDir);
  });
  after(() => rm(root, { recursive: true, force: true }));

  async function serve(work: (url: string) => Promise<void>, extra: Record<string, string> = {}) {
    const server = startServe({ ...env, ...extra });
    try {
      const [, url] = await server.waitForOutput(LISTENING);
      await work(url as string);
    } finally {
      server.child.kill("SIGTERM");
    }
    const { code } = await server.exited;
    assert.equal(code, 0, server.stderr());
    return server;
  }

  it("writes every file 0600 and every folder 0700: accounts, keys, tokens, posts, media", async () => {
    const created = await runWren(
      ["account", "create", "alice", "--email", "alice@example.com", "--password", "long pass 12"],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const tokenRun = await runWren(["token", "create", "alice"], env);
    assert.equal(tokenRun.code, 0, tokenRun.stderr);
    const auth = { authorization: `Bearer ${tokenRun.stdout.trim()}` };

    await serve(async (url) => {
      // The actor document makes the account's key pairs, stored in kv/.
      const actor = await fetch(`${url}/users/alice`, {
        headers: { accept: "application/activity+json" },
      });
      assert.equal(actor.status, 200);
      const ids: string[] = [];
      for (const [bytes, name, type] of [
        [await solidPng(32, 32), "dot.png", "image/png"],
        [wavTone(), "tone.wav", "audio/wav"],
      ] as const) {
        const body = new FormData();
        body.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
        const res = await fetch(`${url}/api/v2/media`, { method: "POST", headers: auth, body });
        assert.ok(res.status === 200 || res.status === 202, await res.clone().text());
        ids.push(((await res.json()) as { id: string }).id);
      }
      // The audio goes through ffmpeg in the background: wait until it is published.
      for (const id of ids) {
        for (let tries = 0; ; tries++) {
          const res = await fetch(`${url}/api/v1/media/${id}`, { headers: auth });
          await res.arrayBuffer();
          if (res.status === 200) break;
          assert.equal(res.status, 206);
          assert.ok(tries < 200, `media ${id} still processing`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      const post = await fetch(`${url}/api/v1/statuses`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        // Mastodon allows no image beside audio: the post takes the audio, the image stays unattached.
        body: JSON.stringify({ status: "Private files", media_ids: ids.slice(1) }),
      });
      assert.equal(post.status, 200, await post.text());
      // While the server runs: its lock file and admin socket too.
      const running = await assertPrivate(dataDir);
      assert.ok(running.some((e) => e.kind === "socket"));
    });

    const entries = await assertPrivate(dataDir);
    const names = new Set(entries.map((e) => e.path.slice(dataDir.length + 1).split("/")[0]));
    for (const folder of ["kv", "users", "accounts", "statuses", "media"]) {
      assert.ok(names.has(folder), `${folder}/ was written (${[...names].join(", ")})`);
    }
    assert.ok(entries.filter((e) => e.kind === "file").length > 10);
  });

  it("makes a directory left readable by other users private at start, and says so", async () => {
    await loosen(dataDir);
    const server = await serve(async () => {}, { WREN_LOG_LEVEL: "warning" });
    await assertPrivate(dataDir);
    assert.match(server.stderr(), /data directory .* was readable by other users/);
    assert.match(server.stderr(), /made \d+ files and folders private/);
  });

  it("makes it private when a one-off command opens it too", async () => {
    await loosen(dataDir);
    const result = await runWren(
      ["account", "create", "bob", "--email", "bob@example.com", "--password", "long pass 12"],
      env,
    );
    assert.equal(result.code, 0, result.stderr);
    await assertPrivate(dataDir);
    assert.match(result.stderr, /was readable by other users/);
  });
});
