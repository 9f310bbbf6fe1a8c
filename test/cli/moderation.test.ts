// `wren account suspend|unsuspend|silence|unsilence|sensitive|unsensitive|disable|enable` and
// `wren account role` through a running server's admin socket: the operator outranks every role.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { runWren } from "./run-wren.ts";

describe("wren account moderation and roles", () => {
  let server: TestServer;
  let env: Record<string, string>;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    bob = await createUserWithToken(server, "bob");
    env = { WREN_DATA_DIR: server.dataDir, WREN_PUBLIC_URL: server.config.publicUrl };
  });
  after(() => server.close());

  const me = () => server.request("/api/v1/accounts/verify_credentials", { token: bob.token });

  it("makes an owner, who keeps their tokens", async () => {
    const role = await runWren(["account", "role", "bob", "owner"], env);
    assert.equal(role.code, 0, role.stderr);
    const json = (await (await me()).json()) as { role: { name: string } };
    assert.equal(json.role.name, "Owner");
    const bad = await runWren(["account", "role", "bob", "emperor"], env);
    assert.notEqual(bad.code, 0);
  });

  it("suspends, silences and disables, and undoes them", async () => {
    const suspend = await runWren(["account", "suspend", "bob"], env);
    assert.equal(suspend.code, 0, suspend.stderr);
    assert.equal(suspend.stdout, "bob: suspended\n");
    assert.equal((await me()).status, 401);
    const silence = await runWren(["account", "silence", "bob"], env);
    assert.equal(silence.stdout, "bob: suspended, silenced\n");
    const unsuspend = await runWren(["account", "unsuspend", "bob"], env);
    assert.equal(unsuspend.stdout, "bob: silenced\n");
    assert.equal((await me()).status, 200);
    const disable = await runWren(["account", "disable", "bob"], env);
    assert.equal(disable.stdout, "bob: silenced, disabled\n");
    assert.equal((await me()).status, 401);
    await runWren(["account", "enable", "bob"], env);
    const clear = await runWren(["account", "unsilence", "bob"], env);
    assert.equal(clear.stdout, "bob: no restrictions\n");
    assert.equal((await me()).status, 200);
    const unknown = await runWren(["account", "suspend", "nobody"], env);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /No account nobody/);
  });
});
