// Lists (Mastodon's lists API): create, show, rename, delete; another user's list is 404;
// read:lists and write:lists enforced; bad input answers 4xx with {"error"}. Every answer is
// checked against Mastodon's entity definitions.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { call, type Json } from "../graph/helpers.ts";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("lists", () => {
  let server: TestServer;
  let ann: TestUser;
  let ben: TestUser;

  before(async () => {
    server = await startTestServer({ WREN_RATE_LIMIT_REQUESTS: "100000" });
    [ann, ben] = await createUsers(server, "ann", "ben");
  });
  after(() => server.close());

  const create = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await call(server, "POST", "/api/v1/lists", user.token, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesResponse("POST", "/api/v1/lists", 200, res.body);
    return res.body;
  };

  it("creates lists with Mastodon's defaults and lists only the owner's, oldest first", async () => {
    const friends = await create(ann, { title: "  Friends  " });
    assert.deepEqual(
      { ...friends, id: undefined },
      { id: undefined, title: "Friends", replies_policy: "list", exclusive: false },
    );
    const work = await create(ann, { title: "Work", replies_policy: "none", exclusive: true });
    assert.equal(work.replies_policy, "none");
    assert.equal(work.exclusive, true);
    // A form body, as older clients send it.
    const form = await server.request("/api/v1/lists", {
      method: "POST",
      token: ann.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "title=Books&replies_policy=followed&exclusive=1",
    });
    const books = (await form.json()) as Json;
    assert.equal(form.status, 200);
    assert.deepEqual(
      [books.title, books.replies_policy, books.exclusive],
      ["Books", "followed", true],
    );
    await create(ben, { title: "Ben's" });

    const res = await call(server, "GET", "/api/v1/lists", ann.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/lists", 200, res.body);
    assert.deepEqual(
      res.body.map((l: Json) => l.title),
      ["Friends", "Work", "Books"],
    );

    const one = await call(server, "GET", `/api/v1/lists/${work.id}`, ann.token);
    assert.equal(one.status, 200);
    assertMatchesResponse("GET", `/api/v1/lists/${work.id}`, 200, one.body);
    assert.deepEqual(one.body, work);
  });

  it("updates only what is given, and deletes", async () => {
    const list = await create(ann, { title: "Draft", replies_policy: "followed" });
    const path = `/api/v1/lists/${list.id}`;
    const renamed = await call(server, "PUT", path, ann.token, { title: "Final" });
    assert.equal(renamed.status, 200);
    assertMatchesResponse("PUT", path, 200, renamed.body);
    assert.deepEqual(renamed.body, { ...list, title: "Final" });
    const changed = await call(server, "PUT", path, ann.token, {
      replies_policy: "none",
      exclusive: "true",
    });
    assert.deepEqual(changed.body, {
      ...list,
      title: "Final",
      replies_policy: "none",
      exclusive: true,
    });
    assert.deepEqual((await call(server, "GET", path, ann.token)).body, changed.body);

    const gone = await call(server, "DELETE", path, ann.token);
    assert.equal(gone.status, 200);
    assert.deepEqual(gone.body, {});
    assert.equal((await call(server, "GET", path, ann.token)).status, 404);
    assert.equal((await call(server, "DELETE", path, ann.token)).status, 404);
    const titles = (await call(server, "GET", "/api/v1/lists", ann.token)).body.map(
      (l: Json) => l.title,
    );
    assert.ok(!titles.includes("Final"));
  });

  it("answers 404 for another user's list, and leaves it alone", async () => {
    const mine = await create(ben, { title: "Private" });
    const path = `/api/v1/lists/${mine.id}`;
    for (const [method, suffix, body] of [
      ["GET", "", undefined],
      ["PUT", "", { title: "Taken" }],
      ["DELETE", "", undefined],
      ["GET", "/accounts", undefined],
      ["POST", "/accounts", { account_ids: [ben.account.id] }],
      ["DELETE", "/accounts", { account_ids: [ben.account.id] }],
      ["GET", "/api/v1/timelines/list/", undefined],
    ] as const) {
      const target = suffix.startsWith("/api") ? `${suffix}${mine.id}` : `${path}${suffix}`;
      const res = await call(server, method, target, ann.token, body);
      assert.equal(res.status, 404, `${method} ${target}`);
      assert.deepEqual(res.body, { error: "Record not found" });
    }
    assert.deepEqual((await call(server, "GET", path, ben.token)).body, mine);
    for (const id of ["999999999", "99999999999999999999999"]) {
      assert.equal((await call(server, "GET", `/api/v1/lists/${id}`, ann.token)).status, 404);
    }
  });

  it("refuses a blank title, an unknown reply policy and a bad exclusive with 422", async () => {
    const list = await create(ann, { title: "Valid" });
    for (const body of [
      {},
      { title: "" },
      { title: "   " },
      { title: ["a", "b"] },
      { title: "x".repeat(300) },
      { title: "ok", replies_policy: "everyone" },
      { title: "ok", exclusive: "maybe" },
    ]) {
      const res = await call(server, "POST", "/api/v1/lists", ann.token, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(typeof res.body.error, "string");
      if (body.title !== undefined && typeof body.title === "string" && body.title.trim() === "") {
        assert.equal(res.body.error, "Validation failed: Title can't be blank");
      }
      if (Object.keys(body).length === 0) continue;
      const put = await call(server, "PUT", `/api/v1/lists/${list.id}`, ann.token, body);
      assert.equal(put.status, 422, `PUT ${JSON.stringify(body)}`);
    }
    assert.deepEqual((await call(server, "GET", `/api/v1/lists/${list.id}`, ann.token)).body, list);
    const broken = await server.request("/api/v1/lists", {
      method: "POST",
      token: ann.token,
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(broken.status, 400);
    assert.equal(typeof ((await broken.json()) as Json).error, "string");
  });

  it("keeps at most 50 lists per user", async () => {
    const cal = await createUserWithToken(server, "cal");
    for (let i = 0; i < 50; i++) await create(cal, { title: `L${i}` });
    const res = await call(server, "POST", "/api/v1/lists", cal.token, { title: "One more" });
    assert.equal(res.status, 422);
    assert.match(res.body.error, /maximum number of lists/);
    assert.equal((await call(server, "GET", "/api/v1/lists", cal.token)).body.length, 50);
  });

  it("needs a user token with read:lists to read and write:lists to write", async () => {
    const list = await create(ann, { title: "Scoped" });
    const reader = await createUserWithToken(server, "reader", ["read:lists"]);
    const writer = await createUserWithToken(server, "writer", ["write:lists"]);
    const other = await createUserWithToken(server, "other", ["read:statuses", "write:statuses"]);
    const reads = [
      "/api/v1/lists",
      `/api/v1/lists/${list.id}`,
      `/api/v1/lists/${list.id}/accounts`,
      `/api/v1/accounts/${ann.account.id}/lists`,
      `/api/v1/timelines/list/${list.id}`,
    ];
    for (const path of reads) {
      assert.equal((await call(server, "GET", path)).status, 401, path);
      assert.equal((await call(server, "GET", path, "bogus")).status, 401, path);
      assert.equal((await call(server, "GET", path, other.token)).status, 403, path);
      assert.equal((await call(server, "GET", path, writer.token)).status, 403, path);
      // A reader of their own lists: the list is someone else's, hence 404 where it is named.
      const status = (await call(server, "GET", path, reader.token)).status;
      assert.ok(status === 200 || status === 404, `${path}: ${status}`);
    }
    const writes = [
      ["POST", "/api/v1/lists", { title: "x" }],
      ["PUT", `/api/v1/lists/${list.id}`, { title: "x" }],
      ["DELETE", `/api/v1/lists/${list.id}`, undefined],
      ["POST", `/api/v1/lists/${list.id}/accounts`, { account_ids: [ben.account.id] }],
      ["DELETE", `/api/v1/lists/${list.id}/accounts`, { account_ids: [ben.account.id] }],
    ] as const;
    for (const [method, path, body] of writes) {
      assert.equal((await call(server, method, path, undefined, body)).status, 401, path);
      const refused = await call(server, method, path, reader.token, body);
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.equal(typeof refused.body.error, "string");
    }
    const made = await call(server, "POST", "/api/v1/lists", writer.token, { title: "Mine" });
    assert.equal(made.status, 200);
    const read = await call(server, "GET", "/api/v1/lists", reader.token);
    assert.deepEqual(read.body, []);
    // The broad scopes admit the granular ones.
    const broad = await createUserWithToken(server, "broad", ["read", "write"]);
    assert.equal(
      (await call(server, "POST", "/api/v1/lists", broad.token, { title: "b" })).status,
      200,
    );
    assert.equal((await call(server, "GET", "/api/v1/lists", broad.token)).body.length, 1);
    assert.deepEqual((await call(server, "GET", `/api/v1/lists/${list.id}`, ann.token)).body, list);
  });
});
