import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  createAppToken,
  createUsers,
  createUserWithToken,
  type TestUser,
} from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, follow, type Json, post } from "./helpers.ts";

const STATUSES = "/api/v1/statuses";

describe("reading statuses", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const posted: Record<string, Json> = {};
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
    await follow(server, bob, alice);
    for (const visibility of ["public", "unlisted", "private", "direct"]) {
      posted[visibility] = await post(server, alice, { status: visibility, visibility });
    }
    posted.mention = await post(server, alice, { status: "@carol psst", visibility: "direct" });
  });
  after(() => server.close());

  describe("GET /api/v1/statuses/:id", () => {
    it("serves public and unlisted statuses without a token, without viewer flags", async () => {
      for (const v of ["public", "unlisted"]) {
        const body = await call(server, "GET", `${STATUSES}/${posted[v].id}`);
        assert.equal(body.id, posted[v].id);
        assert.equal(body.content, `<p>${v}</p>`);
        for (const flag of [
          "favourited",
          "reblogged",
          "bookmarked",
          "muted",
          "pinned",
          "filtered",
        ]) {
          assert.equal(flag in body, false, `${flag} is only for signed-in viewers`);
        }
      }
    });

    it("hides private and direct statuses from anonymous viewers and strangers", async () => {
      for (const v of ["private", "direct"]) {
        const anon = await call(server, "GET", `${STATUSES}/${posted[v].id}`, {}, 404);
        assert.equal(anon.error, "Record not found");
        await call(server, "GET", `${STATUSES}/${posted[v].id}`, { token: carol.token }, 404);
      }
    });

    it("shows private statuses to followers, direct ones to the mentioned, all to the author", async () => {
      await call(server, "GET", `${STATUSES}/${posted.private.id}`, { token: bob.token });
      await call(server, "GET", `${STATUSES}/${posted.direct.id}`, { token: bob.token }, 404);
      await call(server, "GET", `${STATUSES}/${posted.mention.id}`, { token: carol.token });
      const own = await call(server, "GET", `${STATUSES}/${posted.direct.id}`, {
        token: alice.token,
      });
      assert.equal("pinned" in own, false, "direct statuses are not pinnable");
      const pinnable = await call(server, "GET", `${STATUSES}/${posted.private.id}`, {
        token: alice.token,
      });
      assert.equal(pinnable.pinned, false);
      const theirs = await call(server, "GET", `${STATUSES}/${posted.private.id}`, {
        token: bob.token,
      });
      assert.equal("pinned" in theirs, false, "pinned only appears on one's own statuses");
      assert.equal(theirs.favourited, false);
    });

    it("treats an app token as anonymous and needs read:statuses from a token", async () => {
      const { token: appToken } = await createAppToken(server);
      await call(server, "GET", `${STATUSES}/${posted.public.id}`, { token: appToken });
      await call(server, "GET", `${STATUSES}/${posted.private.id}`, { token: appToken }, 404);
      const writer = await createUserWithToken(server, "writer", ["write"]);
      await call(server, "GET", `${STATUSES}/${posted.public.id}`, { token: writer.token }, 403);
      await call(server, "GET", `${STATUSES}/${posted.public.id}`, { token: "nope" }, 401);
    });

    it("answers 404 for unknown ids", async () => {
      await call(server, "GET", `${STATUSES}/123456789`, {}, 404);
      const res = await server.request(`${STATUSES}/abc`);
      assert.equal(res.status, 404);
    });
  });

  describe("GET /api/v1/statuses?id[]=", () => {
    it("answers the visible ones, in the order asked, skipping unknown ids", async () => {
      const ids = [posted.private.id, posted.unlisted.id, "999999", posted.public.id];
      const query = ids.map((id) => `id[]=${id}`).join("&");
      const anon = await call(server, "GET", `${STATUSES}?${query}`);
      assert.deepEqual(
        anon.map((s: Json) => s.id),
        [posted.unlisted.id, posted.public.id],
      );
      const follower = await call(server, "GET", `${STATUSES}?${query}`, { token: bob.token });
      assert.deepEqual(
        follower.map((s: Json) => s.id),
        [posted.private.id, posted.unlisted.id, posted.public.id],
      );
    });

    it("accepts a single id= and refuses bad ids", async () => {
      const one = await call(server, "GET", `${STATUSES}?id=${posted.public.id}`);
      assert.equal(one.length, 1);
      const junk = await call(server, "GET", `${STATUSES}?id[]=x&id[]=${posted.public.id}`);
      assert.deepEqual(
        junk.map((s: Json) => s.id),
        [posted.public.id],
      );
      const many = Array.from({ length: 21 }, (_, i) => `id[]=${i + 1}`).join("&");
      await call(server, "GET", `${STATUSES}?${many}`, {}, 422);
    });
  });
});
