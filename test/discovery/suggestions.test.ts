// Follow suggestions: friends of friends (an endorsement weighing more than a follow), then the
// most followed local accounts; only discoverable accounts; never the viewer, whom they follow,
// block or dismissed. /api/v2 answers Suggestion entities, /api/v1 the accounts alone.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { call, type Json } from "../graph/helpers.ts";
import { createAppToken, createUsers, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MANY_REQUESTS } from "../timelines/helpers.ts";

describe("follow suggestions", () => {
  let server: TestServer;
  let viewer: TestUser;
  let f1: TestUser;
  let f2: TestUser;
  let x: TestUser;
  let y: TestUser;
  let z: TestUser;
  let popular: TestUser;
  let shy: TestUser;

  const follow = (who: TestUser, whom: TestUser) =>
    call(server, "POST", `/api/v1/accounts/${whom.account.id}/follow`, who.token);
  const v2 = async (token = viewer.token, query = "") => {
    const res = await call(server, "GET", `/api/v2/suggestions${query}`, token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesResponse("GET", "/api/v2/suggestions", 200, res.body);
    return res.body as Json[];
  };
  const suggestedIds = async (token = viewer.token) =>
    (await v2(token)).map((s) => s.account.id as string);

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    [viewer, f1, f2, x, y, z, popular, shy] = await createUsers(
      server,
      "viewer",
      "f1",
      "f2",
      "x",
      "y",
      "z",
      "popular",
      "shy",
    );
    for (const u of [viewer, f1, f2, x, y, z, popular]) {
      await call(server, "PATCH", "/api/v1/accounts/update_credentials", u.token, {
        discoverable: true,
      });
    }
    await follow(viewer, f1);
    await follow(viewer, f2);
    // x is followed by both friends, y by f1, z by f2 who also features z; shy opted out.
    for (const [who, whom] of [
      [f1, x],
      [f1, y],
      [f1, shy],
      [f2, x],
      [f2, z],
    ] as const) {
      await follow(who, whom);
    }
    assert.equal(
      (await call(server, "POST", `/api/v1/accounts/${z.account.id}/endorse`, f2.token)).status,
      200,
    );
    // popular is followed by many, none of them the viewer's friends.
    for (const u of [x, y, z]) await follow(u, popular);
  });
  after(() => server.close());

  it("ranks friends of friends (endorsements first), then the most followed", async () => {
    const suggestions = await v2();
    assert.deepEqual(
      suggestions.map((s) => s.account.id),
      [z, x, y, popular].map((u) => u.account.id),
    );
    // z is followed by someone, so it is among the most followed too.
    assert.deepEqual(suggestions[0].sources, ["friends_of_friends", "most_followed"]);
    assert.equal(suggestions[0].source, "past_interactions");
    assert.deepEqual(suggestions[3].sources, ["most_followed"]);
    assert.equal(suggestions[3].source, "global");
    assert.deepEqual(
      (await v2(viewer.token, "?limit=2")).map((s) => s.account.id),
      [z.account.id, x.account.id],
    );
  });

  it("suggests the most followed to someone who follows nobody, never themselves", async () => {
    const ids = await suggestedIds(popular.token);
    // x has the most followers but popular's own.
    assert.equal(ids[0], x.account.id);
    assert.ok(!ids.includes(popular.account.id));
    assert.ok(!ids.includes(shy.account.id));
    const [newcomer] = await createUsers(server, "newcomer");
    const forNewcomer = await suggestedIds((newcomer as TestUser).token);
    assert.equal(forNewcomer[0], popular.account.id);
  });

  it("answers the same accounts on /api/v1", async () => {
    const res = await call(server, "GET", "/api/v1/suggestions", viewer.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/suggestions", 200, res.body);
    assert.deepEqual(
      res.body.map((a: Json) => a.id),
      await suggestedIds(),
    );
  });

  it("leaves out dismissed, blocked and followed accounts", async () => {
    const dismissed = await call(
      server,
      "DELETE",
      `/api/v1/suggestions/${y.account.id}`,
      viewer.token,
    );
    assert.equal(dismissed.status, 200);
    assert.deepEqual(dismissed.body, {});
    // Any id is accepted, as in Mastodon.
    for (const id of ["999999999", "nonsense"]) {
      const res = await call(server, "DELETE", `/api/v1/suggestions/${id}`, viewer.token);
      assert.equal(res.status, 200);
    }
    await call(server, "POST", `/api/v1/accounts/${z.account.id}/block`, viewer.token);
    await follow(viewer, popular);
    assert.deepEqual(await suggestedIds(), [x.account.id]);
    // Only the viewer's own dismissals count.
    assert.ok((await suggestedIds(f1.token)).includes(z.account.id));
  });

  it("needs a user token", async () => {
    assert.equal((await call(server, "GET", "/api/v2/suggestions")).status, 401);
    const { token } = await createAppToken(server);
    assert.equal((await call(server, "GET", "/api/v2/suggestions", token)).status, 422);
  });
});
