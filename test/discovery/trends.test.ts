// Trends computed from recent public activity: hashtags by distinct accounts (stuffed tags and
// one-account tags do not trend), statuses by boosts and favourites (not sensitive, not
// unlisted, at most two per author), only discoverable non-bot authors, and a reader's blocks
// respected. Links stay empty (no preview cards).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { call, type Json, parseLink } from "../graph/helpers.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MANY_REQUESTS, postStatus } from "../timelines/helpers.ts";

describe("trends", () => {
  let server: TestServer;
  let a: TestUser;
  let b: TestUser;
  let c: TestUser;
  let d: TestUser;
  let hidden: TestUser;
  let robot: TestUser;
  let reader: TestUser;
  const statusIds: Record<string, string> = {};

  const get = async (path: string, token?: string) => {
    const res = await call(server, "GET", path, token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesResponse("GET", path.split("?")[0] as string, 200, res.body);
    return res.body as Json[];
  };

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    [a, b, c, d, hidden, robot, reader] = await createUsers(
      server,
      "a",
      "b",
      "c",
      "d",
      "hidden",
      "robot",
      "reader",
    );
    for (const u of [a, b, c, d, robot]) {
      await call(server, "PATCH", "/api/v1/accounts/update_credentials", u.token, {
        discoverable: true,
        bot: u === robot,
      });
    }
    const post = async (key: string, who: TestUser, body: Record<string, unknown>) => {
      statusIds[key] = (await postStatus(server, who.token, body)).id;
    };
    // Hashtags.
    await post("t1", a, { status: "#cats and #dogs" });
    await post("t2", b, { status: "#cats again" });
    await post("t3", c, { status: "#Cats #dogs" });
    await post("t4", a, { status: "#solo" });
    await post("t5", a, { status: "#solo #solo" });
    await post("t6", a, { status: "#w1 #w2 #w3 #w4 #late" });
    await post("t7", c, { status: "#x1 #x2 #x3 #x4 #late" });
    await post("t8", hidden, { status: "#quiet" });
    await post("t9", robot, { status: "#quiet" });
    await post("t10", b, { status: "#unlisted", visibility: "unlisted" });
    await post("t11", c, { status: "#unlisted", visibility: "unlisted" });
    // Statuses and their interactions.
    await post("s1", a, { status: "one" });
    await post("s2", b, { status: "two" });
    await post("s3", c, { status: "three" });
    await post("s4", a, { status: "four", sensitive: true });
    await post("s5", d, { status: "five", visibility: "unlisted" });
    await post("s7", a, { status: "seven" });
    await post("s8", a, { status: "eight" });
    const act = (who: TestUser, action: string, key: string) =>
      call(server, "POST", `/api/v1/statuses/${statusIds[key]}/${action}`, who.token);
    for (const who of [b, c, d]) {
      for (const key of ["s1", "s4", "s5"]) await act(who, "favourite", key);
    }
    await act(a, "reblog", "s2");
    await act(c, "favourite", "s2");
    await act(d, "favourite", "s3");
    for (const key of ["s7", "s8"]) {
      await act(b, "favourite", key);
      await act(c, "favourite", key);
    }
  });
  after(() => server.close());

  it("lists hashtags used by several discoverable accounts, with their history", async () => {
    const tags = await get("/api/v1/trends/tags");
    assert.deepEqual(
      tags.map((t) => t.name),
      ["cats", "dogs"],
    );
    const [cats] = tags;
    assert.equal(cats.history.length, 7);
    assert.equal(cats.history[0].uses, "3");
    assert.equal(cats.history[0].accounts, "3");
    assert.equal(cats.following, undefined);
    // The old name, limit and offset, and the viewer's own flags.
    assert.deepEqual(
      (await get("/api/v1/trends?limit=1&offset=1")).map((t) => t.name),
      ["dogs"],
    );
    const signedIn = await get("/api/v1/trends/tags", reader.token);
    assert.equal(signedIn[0].following, false);
  });

  it("lists statuses by boosts and favourites, two per author at most", async () => {
    const statuses = await get("/api/v1/trends/statuses");
    assert.deepEqual(
      statuses.map((s) => s.id),
      [statusIds.s1, statusIds.s8, statusIds.s2],
    );
    assert.deepEqual(
      (await get("/api/v1/trends/statuses?limit=1&offset=1")).map((s) => s.id),
      [statusIds.s8],
    );
    // Offset paging: next while the page is full, prev past the first one.
    const paged = await call(server, "GET", "/api/v1/trends/statuses?limit=2&offset=1");
    const links = parseLink(paged.headers.get("link"));
    assert.equal(links.next?.searchParams.get("offset"), "3");
    assert.equal(links.next?.searchParams.get("limit"), "2");
    assert.equal(links.prev?.searchParams.get("offset"), "0");
    const last = await call(server, "GET", "/api/v1/trends/statuses?limit=5");
    assert.equal(last.headers.get("link"), null);
  });

  it("leaves out the authors a reader blocks", async () => {
    await call(server, "POST", `/api/v1/accounts/${a.account.id}/block`, reader.token);
    const statuses = await get("/api/v1/trends/statuses", reader.token);
    assert.deepEqual(
      statuses.map((s) => s.id),
      [statusIds.s2],
    );
  });

  it("has no trending links", async () => {
    assert.deepEqual(await get("/api/v1/trends/links"), []);
  });
});
