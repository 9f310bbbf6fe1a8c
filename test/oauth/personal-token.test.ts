import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AppError } from "../../src/domain/errors.ts";
import { hashSecret } from "../../src/services/auth/secrets.ts";
import {
  CLI_APP_CLIENT_ID,
  createPersonalToken,
} from "../../src/services/oauth/create-personal-token.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type AppJson, createUser, readJson } from "./helpers.ts";

describe("createPersonalToken (wren token create)", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await createUser(server, "alice");
  });
  after(() => server.close());

  it("issues a working token under one reused built-in app", async () => {
    const ctx = server.wren.ctx;
    const first = await createPersonalToken(ctx, { username: "alice", scopes: ["read", "write"] });
    const second = await createPersonalToken(ctx, { username: "@Alice", scopes: [] });
    assert.notEqual(first.secret, second.secret);

    const res = await server.request("/api/v1/apps/verify_credentials", { token: first.secret });
    assert.equal(res.status, 200);
    const app = await readJson<AppJson>(res);
    assert.equal(app.name, "Wren CLI");
    const res2 = await server.request("/api/v1/apps/verify_credentials", { token: second.secret });
    assert.equal((await readJson<AppJson>(res2)).id, app.id, "the built-in app is reused");

    const stored = await ctx.storage.apps.findByClientId(CLI_APP_CLIENT_ID);
    assert.equal(stored?.id, app.id);
    const token = await ctx.storage.tokens.findByTokenHash(hashSecret(second.secret));
    assert.deepEqual(token?.scopes, ["read"]);
  });

  it("answers 404 for an unknown account and 422 for unknown scopes", async () => {
    const ctx = server.wren.ctx;
    await assert.rejects(
      createPersonalToken(ctx, { username: "nobody", scopes: ["read"] }),
      (err: unknown) => err instanceof AppError && err.status === 404,
    );
    await assert.rejects(
      createPersonalToken(ctx, { username: "alice", scopes: ["read", "everything"] }),
      (err: unknown) =>
        err instanceof AppError && err.status === 422 && /everything/.test(err.message),
    );
  });

  it("cannot be used at the token endpoint: its client secret is unknown", async () => {
    await createPersonalToken(server.wren.ctx, { username: "alice", scopes: ["read"] });
    const res = await server.request("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: CLI_APP_CLIENT_ID,
        client_secret: "",
      }),
    });
    assert.equal(res.status, 401);
  });
});
