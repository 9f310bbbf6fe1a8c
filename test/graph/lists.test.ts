import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, parseLink } from "./helpers.ts";

describe("followers and following lists", () => {
  let server: TestServer;
  let star: TestUser;
  const fans: TestUser[] = [];
  before(async () => {
    server = await startTestServer();
    star = await createUserWithToken(server, "star");
    for (let i = 0; i < 5; i++) {
      const fan = await createUserWithToken(server, `fan${i}`);
      fans.push(fan);
      await call(server, "POST", `/api/v1/accounts/${star.account.id}/follow`, fan.token);
    }
  });
  after(() => server.close());

  it("lists followers newest first, without a token", async () => {
    const path = `/api/v1/accounts/${star.account.id}/followers`;
    const res = await call(server, "GET", path);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", path, 200, res.body);
    assert.deepEqual(
      res.body.map((a: Json) => a.id),
      fans.map((f) => f.account.id).reverse(),
    );
  });

  it("walks the followers in pages through the Link header (paged by follow, not account)", async () => {
    const seen: string[] = [];
    let next: string | undefined = `/api/v1/accounts/${star.account.id}/followers?limit=2`;
    let pages = 0;
    while (next) {
      const res = await call(server, "GET", next);
      assert.equal(res.status, 200);
      if (res.body.length === 0) {
        assert.equal(res.headers.get("link"), null);
        break;
      }
      pages++;
      assert.ok(res.body.length <= 2);
      seen.push(...res.body.map((a: Json) => a.id));
      const links = parseLink(res.headers.get("link"));
      assert.ok(links.next && links.prev);
      assert.equal(links.next.searchParams.get("limit"), "2");
      assert.equal(links.next.origin, server.url);
      // The cursor is a follow id, which no account id equals.
      const cursor = links.next.searchParams.get("max_id") as string;
      assert.ok(!fans.some((f) => f.account.id === cursor));
      next = `${links.next.pathname}${links.next.search}`;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, fans.map((f) => f.account.id).reverse());

    // prev from the last page leads back to newer followers.
    const last = await call(server, "GET", `/api/v1/accounts/${star.account.id}/followers?limit=2`);
    const older = parseLink(last.headers.get("link")).next as URL;
    const page2 = await call(server, "GET", `${older.pathname}${older.search}`);
    const prev = parseLink(page2.headers.get("link")).prev as URL;
    const back = await call(server, "GET", `${prev.pathname}${prev.search}`);
    assert.deepEqual(
      back.body.map((a: Json) => a.id),
      last.body.map((a: Json) => a.id),
    );
  });

  it("lists whom an account follows", async () => {
    await call(server, "POST", `/api/v1/accounts/${fans[1]?.account.id}/follow`, fans[0]?.token);
    const path = `/api/v1/accounts/${fans[0]?.account.id}/following`;
    const res = await call(server, "GET", path);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", path, 200, res.body);
    assert.deepEqual(
      res.body.map((a: Json) => a.id),
      [fans[1]?.account.id, star.account.id],
    );
    assert.equal(res.body[1].followers_count, 5);
  });

  it("answers 404 for unknown accounts and checks a token that is sent", async () => {
    for (const list of ["followers", "following"]) {
      const res = await call(server, "GET", `/api/v1/accounts/999999999/${list}`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { error: "Record not found" });
      const path = `/api/v1/accounts/${star.account.id}/${list}`;
      assert.equal((await call(server, "GET", path, "bogus")).status, 401);
      const writer = await createUserWithToken(server, `writer_${list}`, ["write"]);
      assert.equal((await call(server, "GET", path, writer.token)).status, 403);
    }
  });

  it("clamps limit and rejects a malformed cursor", async () => {
    const path = `/api/v1/accounts/${star.account.id}/followers`;
    const one = await call(server, "GET", `${path}?limit=0`);
    assert.equal(one.body.length, 1);
    const bad = await call(server, "GET", `${path}?max_id=abc`);
    assert.equal(bad.status, 422);
  });
});
