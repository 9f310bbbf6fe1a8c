// `wren serve` end to end, as an operator runs it: a child process configured by WREN_*
// variables, stopped by a signal.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseIdentity } from "../../src/storage/json-file/process-identity.ts";
import {
  serveEnv as loopbackServeEnv,
  runWren,
  startServe,
  WREN_BIN,
  wrenEnv,
} from "./run-wren.ts";

/** A `node` older than 24 on PATH (outside node_modules), which makes bin/wren.js re-exec. */
function olderSystemNode(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir === "" || dir.includes("node_modules")) continue;
    const candidate = join(dir, "node");
    if (!existsSync(candidate)) continue;
    try {
      const version = execFileSync(candidate, ["--version"], { encoding: "utf8" });
      if (Number(version.slice(1).split(".")[0]) < 24) return candidate;
    } catch {}
  }
  return undefined;
}

const LISTENING = /Wren is listening on (http:\/\/\S+)\n/;
const STOP_WITHIN_MS = 5000;

function serveEnv(dataDir: string, extra: Record<string, string> = {}) {
  return loopbackServeEnv(dataDir, { WREN_INSTANCE_TITLE: "Serve Test", ...extra });
}

async function exitsWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not exit within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe("wren serve", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "wren-cli-serve-"));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("serves HTTP, hints at the first account, and stops cleanly on SIGTERM", async () => {
    const dataDir = join(root, "fresh");
    const env = await serveEnv(dataDir);
    const serve = startServe(env);
    try {
      const [, listenUrl] = await serve.waitForOutput(LISTENING);
      assert.equal(listenUrl, `http://127.0.0.1:${env.WREN_PORT}`);
      await serve.waitForOutput(/--admin\n[\s\S]*enter .*\n.*\n/);
      // The first-run hint: how to create the first account and which address apps need.
      const out = serve.stdout();
      assert.match(out, /npx wren account create alice --email \S+ --password .* --admin/);
      assert.match(out, new RegExp(`enter ${env.WREN_PUBLIC_URL.replaceAll(".", "\\.")}`));
      assert.match(out, new RegExp(`admin socket: +${join(dataDir, "admin.sock")}`));

      const res = await fetch(`${listenUrl}/api/v1/instance`);
      assert.equal(res.status, 200);
      const instance = (await res.json()) as { uri: string; title: string };
      assert.equal(instance.title, "Serve Test");

      assert.equal(
        parseIdentity(await readFile(join(dataDir, "wren.lock"), "utf8"))?.pid,
        serve.child.pid,
      );
      assert.ok(existsSync(join(dataDir, "admin.sock")));
    } finally {
      serve.child.kill("SIGTERM");
    }
    const { code, signal } = await exitsWithin(serve.exited, STOP_WITHIN_MS);
    assert.equal(signal, null);
    assert.equal(code, 0, serve.stderr());
    assert.match(serve.stdout(), /Wren has stopped\.\n$/);
    assert.equal(existsSync(join(dataDir, "wren.lock")), false);
    assert.equal(existsSync(join(dataDir, "admin.sock")), false);
  });

  it("prints no first-run hint once an account exists, and stops on SIGINT", async () => {
    const dataDir = join(root, "with-account");
    const env = await serveEnv(dataDir);
    const created = await runWren(
      [
        "account",
        "create",
        "alice",
        "--email",
        "alice@example.com",
        "--password",
        "long enough pw",
      ],
      env,
    );
    assert.equal(created.code, 0, created.stderr);

    const serve = startServe(env);
    try {
      // The banner and, on a fresh directory, the hint are written at once.
      await serve.waitForOutput(/Stop it with Ctrl\+C \(or SIGTERM\)\.\n/);
      assert.doesNotMatch(serve.stdout(), /account create/);
    } finally {
      serve.child.kill("SIGINT");
    }
    const { code } = await exitsWithin(serve.exited, STOP_WITHIN_MS);
    assert.equal(code, 0, serve.stderr());
    assert.equal(existsSync(join(dataDir, "wren.lock")), false);
  });

  it("lets a request that is running finish before stopping", async () => {
    const dataDir = join(root, "in-flight");
    const env = await serveEnv(dataDir);
    const serve = startServe(env);
    let code: number | null;
    try {
      const [, listenUrl] = await serve.waitForOutput(LISTENING);
      // A request whose body is still arriving when the signal comes: the server must wait
      // for it and answer it, not drop the connection.
      const body = new TransformStream<Uint8Array, Uint8Array>();
      const writer = body.writable.getWriter();
      const response = fetch(`${listenUrl}/api/v1/apps`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: body.readable,
        duplex: "half",
      } as RequestInit);
      await writer.write(new TextEncoder().encode('{"client_name":'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      serve.child.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(serve.child.exitCode, null, "the server waited for the running request");
      await writer.write(
        new TextEncoder().encode('"late","redirect_uris":"urn:ietf:wg:oauth:2.0:oob"}'),
      );
      await writer.close();
      const res = await response;
      const answered = Date.now();
      // Any complete HTTP answer shows the request was served, whatever the route says.
      assert.ok(res.status > 0);
      await res.arrayBuffer();
      ({ code } = await exitsWithin(serve.exited, STOP_WITHIN_MS));
      // Once the last request is answered nothing holds the shutdown (not even keep-alive).
      assert.ok(Date.now() - answered < 2000, `exit took ${Date.now() - answered} ms`);
    } finally {
      serve.child.kill("SIGKILL");
    }
    assert.equal(code, 0, serve.stderr());
  });

  it("a second signal stops at once", async () => {
    const dataDir = join(root, "forced");
    const env = await serveEnv(dataDir);
    const serve = startServe(env);
    try {
      const [, listenUrl] = await serve.waitForOutput(LISTENING);
      // Keep a request open so that the first signal cannot finish the shutdown.
      const body = new TransformStream<Uint8Array, Uint8Array>();
      const writer = body.writable.getWriter();
      const pending = fetch(`${listenUrl}/api/v1/apps`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: body.readable,
        duplex: "half",
      } as RequestInit).catch(() => undefined);
      await writer.write(new TextEncoder().encode("{"));
      await new Promise((resolve) => setTimeout(resolve, 200));
      serve.child.kill("SIGTERM");
      // The same signal at once again counts as one (Ctrl+C reaches a launcher and the server).
      serve.child.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.equal(serve.child.exitCode, null);
      serve.child.kill("SIGTERM");
      const { code } = await exitsWithin(serve.exited, STOP_WITHIN_MS);
      assert.equal(code, 1);
      assert.match(serve.stderr(), /again: exiting without waiting/);
      await writer.abort().catch(() => undefined);
      await pending;
    } finally {
      serve.child.kill("SIGKILL");
    }
  });

  it("recovers after a crash: stale lock and socket are taken over", async () => {
    const dataDir = join(root, "crashed");
    const env = await serveEnv(dataDir);
    const first = startServe(env);
    await first.waitForOutput(LISTENING);
    first.child.kill("SIGKILL");
    await first.exited;
    assert.ok(existsSync(join(dataDir, "wren.lock")), "a crash leaves the lock file");
    assert.ok(existsSync(join(dataDir, "admin.sock")), "a crash leaves the socket file");

    // A command finds no live holder and works directly on the storage.
    const created = await runWren(
      [
        "account",
        "create",
        "carol",
        "--email",
        "carol@example.com",
        "--password",
        "long enough pw",
      ],
      env,
    );
    assert.equal(created.code, 0, created.stderr);

    const second = startServe(env);
    try {
      await second.waitForOutput(LISTENING);
      // With the server up again, commands reach it over the fresh socket.
      const token = await runWren(["token", "create", "carol"], env);
      assert.equal(token.code, 0, token.stderr);
      assert.match(token.stdout, /^\S+\n$/);
    } finally {
      second.child.kill("SIGTERM");
    }
    assert.equal((await exitsWithin(second.exited, STOP_WITHIN_MS)).code, 0);
    assert.equal(existsSync(join(dataDir, "admin.sock")), false);
  });

  const systemNode = olderSystemNode();
  it("the launcher run by an older Node passes SIGTERM on, so the server stops cleanly", {
    skip: systemNode ? false : "no Node older than 24 on PATH",
  }, async () => {
    const dataDir = join(root, "launcher");
    const launcher = spawn(systemNode!, [WREN_BIN, "serve"], {
      env: wrenEnv(await serveEnv(dataDir)),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    launcher.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    const exited = once(launcher, "close");
    const deadline = Date.now() + 20_000;
    while (!LISTENING.test(out) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(out, LISTENING);
    const serverPid = parseIdentity(await readFile(join(dataDir, "wren.lock"), "utf8"))?.pid;
    assert.notEqual(serverPid, launcher.pid, "the server runs in a child of the launcher");

    launcher.kill("SIGTERM");
    const [code] = await exitsWithin(exited, STOP_WITHIN_MS);
    assert.equal(code, 0);
    assert.match(out, /Wren has stopped\.\n$/);
    assert.equal(existsSync(join(dataDir, "wren.lock")), false);
  });

  it("writes JSON log lines when WREN_LOG_FORMAT=json", async () => {
    const dataDir = join(root, "json-logs");
    const env = await serveEnv(dataDir, { WREN_LOG_FORMAT: "json", WREN_LOG_LEVEL: "info" });
    const serve = startServe(env);
    try {
      const [, listenUrl] = await serve.waitForOutput(LISTENING);
      await (await fetch(`${listenUrl}/api/v1/instance`)).arrayBuffer();
    } finally {
      serve.child.kill("SIGTERM");
    }
    assert.equal((await exitsWithin(serve.exited, STOP_WITHIN_MS)).code, 0);
    const lines = serve.stderr().trim().split("\n");
    assert.ok(lines.length >= 1, "at least the shutdown is logged");
    for (const line of lines) {
      const record = JSON.parse(line) as { level: string; message: string; logger: string };
      assert.equal(typeof record.message, "string");
      assert.match(record.logger, /^wren/);
    }
    assert.ok(lines.some((l) => l.includes("SIGTERM")));
  });

  it("refuses an invalid setting with exit 1, naming the variable", async () => {
    const result = await runWren(["serve"], { WREN_DATA_DIR: join(root, "bad"), WREN_PORT: "abc" });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Invalid configuration/);
    assert.match(result.stderr, /WREN_PORT/);
    assert.equal(existsSync(join(root, "bad")), false, "nothing was created");
  });

  it("refuses to start on a data directory a live server holds", async () => {
    const dataDir = join(root, "busy");
    const env = await serveEnv(dataDir);
    const first = startServe(env);
    try {
      await first.waitForOutput(LISTENING);
      const second = await runWren(["serve"], await serveEnv(dataDir));
      assert.equal(second.code, 1);
      assert.match(second.stderr, /already in use by process/);
      // The running server's socket is still there and still answers.
      const token = await runWren(["token", "create", "nobody"], env);
      assert.equal(token.code, 1);
      assert.match(token.stderr, /No local account named nobody/);
    } finally {
      first.child.kill("SIGTERM");
    }
    assert.equal((await exitsWithin(first.exited, STOP_WITHIN_MS)).code, 0);
  });

  it("explains a port that is already taken", async () => {
    const env = await serveEnv(join(root, "port-a"));
    const first = startServe(env);
    try {
      await first.waitForOutput(LISTENING);
      const second = await runWren(["serve"], { ...env, WREN_DATA_DIR: join(root, "port-b") });
      assert.equal(second.code, 1);
      assert.match(second.stderr, /port is in use \(change WREN_PORT\)/);
      // The failed start released what it had taken.
      assert.equal(existsSync(join(root, "port-b", "wren.lock")), false);
      assert.equal(existsSync(join(root, "port-b", "admin.sock")), false);
    } finally {
      first.child.kill("SIGTERM");
    }
    assert.equal((await exitsWithin(first.exited, STOP_WITHIN_MS)).code, 0);
  });
});
