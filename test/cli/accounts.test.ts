// `wren account …` and `wren token create` in both modes: with no server on the data directory
// (the command opens the storage itself) and beside a running server (the command goes through
// the server's admin socket, since the server holds the directory's lock).

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { authenticateToken } from "../../src/services/auth/authenticate-token.ts";
import { verifyPassword } from "../../src/services/auth/passwords.ts";
import { parseIdentity } from "../../src/storage/json-file/process-identity.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { runWren } from "./run-wren.ts";

const PASSWORD = "correct horse battery";

async function verifyCredentials(server: TestServer, token: string): Promise<Response> {
  return server.request("/api/v1/accounts/verify_credentials", { token });
}

describe("wren account and token commands, server stopped (direct storage)", () => {
  let dataDir: string;
  let env: Record<string, string>;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-cli-direct-"));
    env = { WREN_DATA_DIR: dataDir };
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  let aliceId: string;
  let token: string;

  it("account create prints the new id and releases the data directory", async () => {
    const result = await runWren(
      [
        "account",
        "create",
        "alice",
        "--email",
        "alice@example.com",
        "--password",
        PASSWORD,
        "--admin",
      ],
      env,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^\d+\n$/);
    aliceId = result.stdout.trim();
    // The command took the lock for its own use and gave it back.
    assert.equal(existsSync(join(dataDir, "wren.lock")), false);
    assert.equal(existsSync(join(dataDir, "admin.sock")), false);
    assert.ok(existsSync(join(dataDir, "accounts", `${aliceId}.json`)));
  });

  it("refuses a duplicate username with exit 1 and the reason", async () => {
    const result = await runWren(
      ["account", "create", "ALICE", "--email", "other@example.com", "--password", PASSWORD],
      env,
    );
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /^wren: Validation failed: Username has already been taken\n$/);
  });

  it("refuses a bad email and a short password in one message", async () => {
    const result = await runWren(
      ["account", "create", "bob", "--email", "not-an-email", "--password", "short"],
      env,
    );
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Email is invalid/);
    assert.match(result.stderr, /Password is too short/);
  });

  it("lets the operator take a name reserved from sign-ups", async () => {
    const result = await runWren(
      ["account", "create", "admin", "--email", "admin@example.com", "--password", PASSWORD],
      env,
    );
    assert.equal(result.code, 0, result.stderr);
  });

  it("token create prints only the token", async () => {
    const result = await runWren(["token", "create", "alice"], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^[A-Za-z0-9_-]{20,}\n$/);
    assert.equal(result.stderr, "");
    token = result.stdout.trim();
  });

  it("token create refuses unknown scopes and unknown users", async () => {
    const scopes = await runWren(["token", "create", "alice", "--scopes", "read telepathy"], env);
    assert.equal(scopes.code, 1);
    assert.match(scopes.stderr, /Unknown scopes: telepathy/);
    const nobody = await runWren(["token", "create", "nobody"], env);
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /No local account named nobody/);
  });

  it("the account, the admin role and the token work once a server starts", async () => {
    const server = await startTestServer({}, { dataDir });
    try {
      const user = await server.wren.ctx.storage.users.get(aliceId);
      assert.equal(user?.role, "admin");
      assert.equal(user?.email, "alice@example.com");
      const auth = await authenticateToken(server.wren.ctx, token);
      assert.equal(auth?.account?.id, aliceId);
      assert.deepEqual(auth?.token.scopes, ["read", "write", "follow", "push"]);

      const res = await verifyCredentials(server, token);
      assert.equal(res.status, 200);
      const body = (await res.json()) as { id: string; username: string };
      assert.equal(body.id, aliceId);
      assert.equal(body.username, "alice");
      assert.equal((await verifyCredentials(server, `${token}x`)).status, 401);
    } finally {
      await server.close();
    }
  });

  it("reset-password changes the password and revokes the tokens", async () => {
    const result = await runWren(
      ["account", "reset-password", "alice", "--password", "a new long password"],
      env,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /password of alice has been changed/);

    const server = await startTestServer({}, { dataDir });
    try {
      const user = await server.wren.ctx.storage.users.get(aliceId);
      assert.ok(user);
      assert.equal(await verifyPassword("a new long password", user.passwordHash), true);
      assert.equal(await verifyPassword(PASSWORD, user.passwordHash), false);
      assert.equal(await authenticateToken(server.wren.ctx, token), null);
    } finally {
      await server.close();
    }
  });

  it("reset-password of an unknown account exits 1", async () => {
    const result = await runWren(["account", "reset-password", "zed", "--password", PASSWORD], env);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /No local account named zed/);
  });
});

describe("wren account and token commands, server running (admin socket)", () => {
  let server: TestServer;
  let env: Record<string, string>;
  before(async () => {
    server = await startTestServer();
    env = { WREN_DATA_DIR: server.dataDir };
  });
  after(async () => {
    await server.close();
  });

  async function lockHolder(): Promise<string> {
    return String(parseIdentity(await readFile(join(server.dataDir, "wren.lock"), "utf8"))?.pid);
  }

  it("the server holds the lock and listens on the admin socket", async () => {
    assert.equal(await lockHolder(), String(process.pid));
    assert.equal(server.wren.adminSocket, join(server.dataDir, "admin.sock"));
  });

  let bobId: string;

  it("account create goes through the server, which keeps its lock", async () => {
    const result = await runWren(
      ["account", "create", "bob", "--email", "bob@example.com", "--password", PASSWORD],
      env,
    );
    assert.equal(result.code, 0, result.stderr);
    bobId = result.stdout.trim();
    assert.match(bobId, /^\d+$/);
    // Had the command opened the storage itself, it would have failed on the lock; and the
    // running server would not know the account without reading it from disk again.
    assert.equal(await lockHolder(), String(process.pid));
    const account = await server.wren.ctx.storage.accounts.findByUsername("bob", null);
    assert.equal(account?.id, bobId);
    assert.equal((await server.wren.ctx.storage.users.get(bobId))?.role, "user");
  });

  it("a duplicate is refused with exit 1 and the server's reason", async () => {
    const result = await runWren(
      ["account", "create", "bob", "--email", "bob2@example.com", "--password", PASSWORD],
      env,
    );
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /^wren: Validation failed: Username has already been taken\n$/);
  });

  it("token create prints a token that works over HTTP at once", async () => {
    const result = await runWren(["token", "create", "bob", "--scopes", "read"], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^[A-Za-z0-9_-]{20,}\n$/);
    const token = result.stdout.trim();

    const res = await verifyCredentials(server, token);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { id: string }).id, bobId);
    const auth = await authenticateToken(server.wren.ctx, token);
    assert.deepEqual(auth?.token.scopes, ["read"]);
  });

  it("reset-password goes through the server and signs the account out", async () => {
    const token = (await runWren(["token", "create", "bob"], env)).stdout.trim();
    assert.equal((await verifyCredentials(server, token)).status, 200);

    const result = await runWren(
      ["account", "reset-password", "bob", "--password", "another long one"],
      env,
    );
    assert.equal(result.code, 0, result.stderr);
    const user = await server.wren.ctx.storage.users.get(bobId);
    assert.ok(user);
    assert.equal(await verifyPassword("another long one", user.passwordHash), true);
    assert.equal((await verifyCredentials(server, token)).status, 401);
    assert.equal(await lockHolder(), String(process.pid));
  });

  it("errors from the server exit 1 with its message", async () => {
    const result = await runWren(
      ["account", "reset-password", "nobody", "--password", PASSWORD],
      env,
    );
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^wren: No local account named nobody\n$/);
  });

  it("commands running at the same time are all served", async () => {
    const results = await Promise.all(
      ["c1", "c2", "c3"].map((name) =>
        runWren(
          ["account", "create", name, "--email", `${name}@example.com`, "--password", PASSWORD],
          env,
        ),
      ),
    );
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    assert.equal(new Set(results.map((r) => r.stdout)).size, 3);
    assert.equal(await server.wren.ctx.storage.users.count(), 4);
  });
});
