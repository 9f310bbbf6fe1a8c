// A bearer token's hash is kept between requests (authenticate-token.ts): each token must still
// find its own holder, a made-up bearer sharing a real token's start must not, and a kept hash must
// not keep a revoked token alive.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { authenticateToken } from "../../src/services/auth/authenticate-token.ts";
import { hashSecret } from "../../src/services/auth/secrets.ts";
import { createUsers } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("bearer tokens asked again and again", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it("resolve each to its holder, refuse look-alikes and see a revocation", async () => {
    const ctx = server.wren.ctx;
    const [alice, bob] = await createUsers(server, "alice", "bob");
    for (let i = 0; i < 3; i++) {
      assert.equal((await authenticateToken(ctx, alice.token))?.account?.id, alice.account.id);
      assert.equal((await authenticateToken(ctx, bob.token))?.account?.id, bob.account.id);
    }
    // Longer than the kept bearers, starting with a real token: unknown, each time.
    const lookAlike = alice.token + "x".repeat(200);
    assert.equal(await authenticateToken(ctx, lookAlike), null);
    assert.equal(await authenticateToken(ctx, lookAlike), null);
    assert.equal(await authenticateToken(ctx, `${alice.token}x`), null);

    const token = await ctx.storage.tokens.findByTokenHash(hashSecret(alice.token));
    assert.ok(token);
    await ctx.storage.tokens.put({ ...token, revokedAt: ctx.clock.now().toISOString() });
    assert.equal(await authenticateToken(ctx, alice.token), null);
    assert.equal((await authenticateToken(ctx, bob.token))?.account?.id, bob.account.id);
  });
});
