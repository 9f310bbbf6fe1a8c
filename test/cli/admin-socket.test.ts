// The admin socket's protocol, over the real socket of a real server: results, refusals with a
// status, bounded requests, file permissions, and a close that finishes what was asked.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { callAdmin } from "../../src/admin/client.ts";
import { AdminError, MAX_MESSAGE_BYTES } from "../../src/admin/protocol.ts";
import { startAdminSocket } from "../../src/admin/server.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** Sends raw bytes and returns the raw answer, as a misbehaving client would see it. */
function rawExchange(path: string, payload: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (s: string) => {
      answer += s;
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // The server may close before reading everything a flooding client sends.
      if (error.code === "EPIPE" || error.code === "ECONNRESET") resolve(answer);
      else reject(error);
    });
    socket.on("end", () => resolve(answer));
    socket.write(payload);
  });
}

async function expectAdminError(promise: Promise<unknown>, status: number, pattern: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AdminError, String(error));
    assert.equal(error.status, status);
    assert.match(error.message, pattern);
    return true;
  });
}

describe("admin socket", () => {
  let server: TestServer;
  let path: string;
  before(async () => {
    server = await startTestServer();
    path = server.wren.adminSocket ?? assert.fail("a json-file server has an admin socket");
  });
  after(async () => {
    await server.close();
  });

  it("is a socket that only its owner can use", async () => {
    const info = await stat(path);
    assert.ok(info.isSocket());
    assert.equal(info.mode & 0o777, 0o600);
  });

  it("runs an operation and answers with its result", async () => {
    const result = (await callAdmin(path, "account.create", {
      username: "dora",
      email: "dora@example.com",
      password: "long enough password",
    })) as { id: string; username: string };
    assert.equal(result.username, "dora");
    assert.equal((await server.wren.ctx.storage.accounts.get(result.id))?.username, "dora");
  });

  it("answers refusals of the service with their status", async () => {
    await expectAdminError(
      callAdmin(path, "account.create", {
        username: "dora",
        email: "x@example.com",
        password: "long enough password",
      }),
      422,
      /Username has already been taken/,
    );
    await expectAdminError(
      callAdmin(path, "token.create", { username: "ghost" }),
      404,
      /No local account named ghost/,
    );
  });

  it("refuses unknown operations and malformed arguments with 400", async () => {
    await expectAdminError(
      callAdmin(path, "server.shutdown"),
      400,
      /Unknown operation: server\.shutdown/,
    );
    await expectAdminError(callAdmin(path, "toString"), 400, /Unknown operation/);
    await expectAdminError(
      callAdmin(path, "account.create", { username: 42, email: "a@b.c", password: "x" }),
      400,
      /Invalid arguments for account\.create: username/,
    );
  });

  it("answers a request that is not JSON, or not an operation, with an error", async () => {
    assert.deepEqual(JSON.parse(await rawExchange(path, "hello\n")), {
      error: "The request is not valid JSON",
      status: 400,
    });
    assert.deepEqual(JSON.parse(await rawExchange(path, "[1,2]\n")), {
      error: 'The request must be an object with an "op" string',
      status: 400,
    });
  });

  it("refuses a request larger than the limit without reading it all", async () => {
    const huge = Buffer.alloc(MAX_MESSAGE_BYTES * 4, "a");
    const answer = await rawExchange(path, huge);
    assert.deepEqual(JSON.parse(answer), {
      error: `Request larger than ${MAX_MESSAGE_BYTES} bytes`,
      status: 413,
    });
    // The server is unharmed.
    await expectAdminError(callAdmin(path, "nothing"), 400, /Unknown operation/);
  });

  it("refuses to replace a file that is not a socket", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wren-admin-"));
    try {
      const notASocket = join(dir, "admin.sock");
      await writeFile(notASocket, "precious");
      await assert.rejects(startAdminSocket(server.wren.ctx, notASocket), /is not a socket/);
      assert.ok(existsSync(notASocket));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a path too long for a Unix socket with a clear message", async () => {
    const long = join(tmpdir(), "d".repeat(120), "admin.sock");
    await assert.rejects(startAdminSocket(server.wren.ctx, long), /too long for a Unix socket/);
  });

  it("finishes a running operation before closing, then removes the socket", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "wren-admin-close-"));
    // Production's password hashing cost (the test servers' default is far cheaper): it makes
    // the operation take a while, so that close() comes while it runs.
    const other = await startTestServer({ WREN_PASSWORD_HASH_COST: "15" }, { dataDir });
    try {
      const socket =
        other.wren.adminSocket ?? assert.fail("a json-file server has an admin socket");
      // Closed once the operation runs (it looks the name up first), not after a guessed delay:
      // on a loaded machine the connection itself can take longer than that.
      const { accounts } = other.wren.ctx.storage;
      const lookUp = accounts.findByUsername.bind(accounts);
      const running = new Promise<void>((resolve) => {
        accounts.findByUsername = (...args) => {
          resolve();
          return lookUp(...args);
        };
      });
      const call = callAdmin(socket, "account.create", {
        username: "eve",
        email: "eve@example.com",
        password: "long enough password",
      });
      await running;
      await other.wren.close();
      const { id } = (await call) as { id: string };
      assert.equal(existsSync(socket), false);
      await assert.rejects(callAdmin(socket, "token.create", { username: "eve" }), {
        code: "ENOENT",
      });

      await other.restart();
      assert.equal((await other.wren.ctx.storage.accounts.get(id))?.username, "eve");
    } finally {
      await other.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
