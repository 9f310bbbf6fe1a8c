// Trends over time, on a clock the test moves: the lists are kept a minute, computed again
// afterwards when something changed, and a hashtag leaves the trends once its uses are older than
// the 48-hour window, even on a server where nothing else happens.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { call, type Json, manualClock } from "../graph/helpers.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MANY_REQUESTS, postStatus } from "../timelines/helpers.ts";

describe("trends over time", () => {
  const clock = manualClock(new Date().toISOString());
  let server: TestServer;
  let a: TestUser;
  let b: TestUser;

  const trendingTags = async (): Promise<string[]> => {
    const res = await call(server, "GET", "/api/v1/trends/tags");
    assert.equal(res.status, 200);
    return res.body.map((t: Json) => t.name);
  };

  before(async () => {
    server = await startTestServer(MANY_REQUESTS, { clock });
    [a, b] = await createUsers(server, "a", "b");
    for (const u of [a, b]) {
      await call(server, "PATCH", "/api/v1/accounts/update_credentials", u.token, {
        discoverable: true,
      });
    }
  });
  after(() => server.close());

  it("keeps a list a minute, then counts what changed", async () => {
    for (const u of [a, b]) await postStatus(server, u.token, { status: "#first" });
    assert.deepEqual(await trendingTags(), ["first"]);
    clock.advance(10);
    for (const u of [a, b]) await postStatus(server, u.token, { status: "#second #second" });
    assert.deepEqual(await trendingTags(), ["first"], "kept for a minute");
    clock.advance(60);
    // Both used by the same two accounts: the more recent use scores higher.
    assert.deepEqual(await trendingTags(), ["second", "first"]);
  });

  it("drops hashtags whose uses left the 48-hour window, with no write in between", async () => {
    clock.advance(49 * 3600);
    assert.deepEqual(await trendingTags(), []);
  });
});
