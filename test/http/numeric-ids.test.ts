// Ids sent as JSON numbers (megalodon, Mastodon.py and hand-written scripts do) keep every digit:
// Wren's ids are above 2^53, where a JavaScript number would round them.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("ids sent as JSON numbers", () => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  /** Posts JSON text as written: JSON.stringify could not write an unquoted 18-digit id. */
  async function postJsonText(path: string, text: string) {
    const res = await server.request(path, {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: text,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it("stores a marker's last_read_id with every digit", async () => {
    const res = await postJsonText(
      "/api/v1/markers",
      '{"home":{"last_read_id":117678306780643328}}',
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((res.body.home as { last_read_id: string }).last_read_id, "117678306780643328");
  });

  it("replies to the status named by a numeric in_reply_to_id", async () => {
    const parent = await postJsonText("/api/v1/statuses", '{"status":"first"}');
    const parentId = parent.body.id as string;
    assert.ok(!Number.isSafeInteger(Number(parentId)), "the test needs an id beyond 2^53");
    const reply = await postJsonText(
      "/api/v1/statuses",
      `{"status":"second","in_reply_to_id":${parentId}}`,
    );
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.in_reply_to_id, parentId);
  });

  it("still refuses an integer parameter too large to be one", async () => {
    const res = await postJsonText(
      "/api/v1/statuses",
      '{"status":"poll","poll":{"options":["a","b"],"expires_in":117678306780643328}}',
    );
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(typeof res.body.error, "string");
  });
});
