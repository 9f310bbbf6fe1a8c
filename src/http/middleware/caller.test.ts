import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { createUserWithToken } from "../../../test/helpers/accounts.ts";
import { startTestServer, type TestServer } from "../../../test/helpers/server.ts";
import type { HttpEnv } from "../env.ts";
import { verifiedCaller } from "./caller.ts";

describe("verifiedCaller", () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    ({ token } = await createUserWithToken(server, "alice"));
  });
  after(() => server.close());

  /** What each of three asks in one request got: a promise or the value, and whose. */
  function app() {
    const a = new Hono<HttpEnv>();
    a.get("/asks", async (c) => {
      const asks = [];
      for (let i = 0; i < 3; i++) {
        const found = verifiedCaller(c, server.wren.ctx);
        const viewer = found instanceof Promise ? await found : found;
        asks.push({
          promise: found instanceof Promise,
          username: viewer === null ? null : viewer.account?.username,
        });
      }
      return c.json(asks);
    });
    return a;
  }

  it("looks a token up once, and answers the later asks without a promise", async () => {
    const res = await app().request("/asks", { headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual(await res.json(), [
      { promise: true, username: "alice" },
      { promise: false, username: "alice" },
      { promise: false, username: "alice" },
    ]);
  });

  it("answers null at once without a bearer token, and after the lookup for an unknown one", async () => {
    const none = await app().request("/asks");
    assert.deepEqual(await none.json(), Array(3).fill({ promise: false, username: null }));
    const basic = await app().request("/asks", { headers: { authorization: "Basic eDp5" } });
    assert.deepEqual(await basic.json(), Array(3).fill({ promise: false, username: null }));
    const junk = await app().request("/asks", { headers: { authorization: "Bearer junk" } });
    assert.deepEqual(await junk.json(), [
      { promise: true, username: null },
      { promise: false, username: null },
      { promise: false, username: null },
    ]);
  });
});
