// GET /api/v1/accounts/:id/identity_proofs: Keybase proofs are gone from Mastodon, which still
// answers an empty list for an account that exists and 404 for one that does not.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call } from "../statuses/helpers.ts";

describe("identity proofs", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice", ["read:statuses"]);
  });
  after(() => server.close());

  it("answers an empty list for an existing account, with a user token of any scope", async () => {
    const path = `/api/v1/accounts/${alice.account.id}/identity_proofs`;
    assert.deepEqual(await call(server, "GET", path, { token: alice.token }), []);
  });

  it("answers 404 for an unknown account and 401/422 without a user", async () => {
    await call(
      server,
      "GET",
      "/api/v1/accounts/999999/identity_proofs",
      { token: alice.token },
      404,
    );
    await call(
      server,
      "GET",
      "/api/v1/accounts/nobody/identity_proofs",
      { token: alice.token },
      404,
    );
    const path = `/api/v1/accounts/${alice.account.id}/identity_proofs`;
    await call(server, "GET", path, {}, 401);
    const { token } = await createAppToken(server);
    await call(server, "GET", path, { token }, 422);
  });
});
