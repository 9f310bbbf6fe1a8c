// The hub's heartbeat also ends the connections of accounts that may no longer stream, so a user
// disabled without the signal (another process, a restore) loses their streams within a beat.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken } from "../../../test/helpers/accounts.ts";
import { eventually } from "../../../test/helpers/federation.ts";
import { startTestServer, type TestServer } from "../../../test/helpers/server.ts";
import type { StreamClient } from "./client.ts";
import { createStreamingHub } from "./hub.ts";

describe("streaming hub heartbeat", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it("ends the connections of a disabled user at the next beat, and only theirs", async () => {
    const { ctx } = server.wren;
    const [erin, finn] = [
      await createUserWithToken(server, "erin"),
      await createUserWithToken(server, "finn"),
    ];
    const hub = createStreamingHub(ctx, { heartbeatMs: 20 });
    const closed = new Set<string>();
    const client = (accountId: string): StreamClient => ({
      viewer: { accountId, tokenId: "1", scopes: ["read"] },
      streams: new Map(),
      send() {},
      heartbeat() {},
      close() {
        closed.add(accountId);
      },
    });
    try {
      hub.add(client(erin.account.id));
      hub.add(client(finn.account.id));
      const user = await ctx.storage.users.get(erin.account.id);
      assert.ok(user);
      await ctx.storage.users.put({ ...user, disabled: true });
      await eventually(async () => assert.ok(closed.has(erin.account.id)));
      assert.equal(closed.has(finn.account.id), false);
    } finally {
      hub.close();
    }
  });
});
