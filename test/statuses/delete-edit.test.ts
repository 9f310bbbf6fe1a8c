import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, post } from "./helpers.ts";

const STATUSES = "/api/v1/statuses";

describe("deleting, editing, history and source", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  describe("DELETE /api/v1/statuses/:id", () => {
    it("answers the status with its source, then 404, keeping the record flagged", async () => {
      const status = await post(server, alice, { status: "bye #gone", spoiler_text: "cw" });
      const deleted = await call(server, "DELETE", `${STATUSES}/${status.id}`, {
        token: alice.token,
      });
      assert.equal(deleted.id, status.id);
      assert.equal(deleted.text, "bye #gone");
      assert.equal(deleted.spoiler_text, "cw");
      await call(server, "GET", `${STATUSES}/${status.id}`, {}, 404);
      await call(server, "GET", `${STATUSES}/${status.id}`, { token: alice.token }, 404);
      await call(server, "GET", `${STATUSES}/${status.id}/context`, {}, 404);
      await call(server, "DELETE", `${STATUSES}/${status.id}`, { token: alice.token }, 404);

      // Kept as a tombstone (asked through the storage port, so on either backend).
      const stored = await server.wren.ctx.storage.statuses.get(status.id);
      assert.equal(stored?.deleted, true);
      assert.equal(typeof stored?.deletedAt, "string");
    });

    it("answers 404 for someone else's status and changes nothing", async () => {
      const status = await post(server, alice, { status: "mine" });
      await call(server, "DELETE", `${STATUSES}/${status.id}`, { token: bob.token }, 404);
      await call(server, "GET", `${STATUSES}/${status.id}`);
    });

    it("needs a token with write:statuses", async () => {
      const status = await post(server, alice, { status: "kept" });
      await call(server, "DELETE", `${STATUSES}/${status.id}`, {}, 401);
      const reader = await createUserWithToken(server, "reader", ["read"]);
      await call(server, "DELETE", `${STATUSES}/${status.id}`, { token: reader.token }, 403);
    });

    it("deletes just the boost when given a boost's id", async () => {
      const status = await post(server, alice, { status: "boost and unboost" });
      const boost = await call(server, "POST", `${STATUSES}/${status.id}/reblog`, {
        token: bob.token,
      });
      assert.equal(boost.reblog.id, status.id);
      const answer = await call(server, "DELETE", `${STATUSES}/${boost.id}`, { token: bob.token });
      assert.equal(answer.id, boost.id);
      await call(server, "GET", `${STATUSES}/${boost.id}`, {}, 404);
      const original = await call(server, "GET", `${STATUSES}/${status.id}`, { token: bob.token });
      assert.equal(original.reblogs_count, 0);
      assert.equal(original.reblogged, false);
    });

    it("takes the boosts of a deleted status with it", async () => {
      const status = await post(server, alice, { status: "boost me" });
      const ctx = server.wren.ctx;
      const id = ctx.ids.next();
      await ctx.storage.statuses.put({
        ...(await ctx.storage.statuses.get(status.id))!,
        id,
        accountId: bob.account.id,
        uri: `${bob.account.uri}/statuses/${id}/activity`,
        text: "",
        contentHtml: "",
        reblogOfId: status.id,
        applicationId: null,
      });
      await call(server, "DELETE", `${STATUSES}/${status.id}`, { token: alice.token });
      assert.equal((await ctx.storage.statuses.get(id))?.deleted, true);
      await call(server, "GET", `${STATUSES}/${id}`, {}, 404);
    });
  });

  describe("PUT /api/v1/statuses/:id and its history", () => {
    it("edits the text and keeps every version", async () => {
      const status = await post(server, alice, { status: "first #one" });
      const edited = await call(server, "PUT", `${STATUSES}/${status.id}`, {
        token: alice.token,
        json: { status: "second @bob #two", spoiler_text: "cw", language: "fr" },
      });
      assert.equal(edited.id, status.id);
      assert.match(edited.content, /second .*h-card/);
      assert.equal(edited.spoiler_text, "cw");
      assert.equal(edited.sensitive, true);
      assert.equal(edited.language, "fr");
      assert.deepEqual(
        edited.tags.map((t: Json) => t.name),
        ["two"],
      );
      assert.deepEqual(
        edited.mentions.map((m: Json) => m.id),
        [bob.account.id],
      );
      assert.equal(typeof edited.edited_at, "string");
      assert.equal(edited.created_at, status.created_at);

      const history = await call(server, "GET", `${STATUSES}/${status.id}/history`);
      assert.equal(history.length, 2);
      assert.equal(history[0].content, status.content);
      assert.equal(history[0].created_at, status.created_at);
      assert.equal(history[1].content, edited.content);
      assert.equal(history[1].created_at, edited.edited_at);
      assert.equal(history[1].account.id, alice.account.id);

      const source = await call(server, "GET", `${STATUSES}/${status.id}/source`, {
        token: alice.token,
      });
      assert.deepEqual(source, { id: status.id, text: "second @bob #two", spoiler_text: "cw" });
    });

    it("has a single version before any edit", async () => {
      const status = await post(server, alice, { status: "untouched" });
      const history = await call(server, "GET", `${STATUSES}/${status.id}/history`);
      assert.equal(history.length, 1);
      assert.equal(history[0].content, "<p>untouched</p>");
    });

    it("keeps the length rules and answers 404 to others", async () => {
      const status = await post(server, alice, { status: "short" });
      await call(
        server,
        "PUT",
        `${STATUSES}/${status.id}`,
        { token: alice.token, json: { status: "x".repeat(501) } },
        422,
      );
      await call(
        server,
        "PUT",
        `${STATUSES}/${status.id}`,
        { token: alice.token, json: { status: "" } },
        422,
      );
      await call(
        server,
        "PUT",
        `${STATUSES}/${status.id}`,
        { token: bob.token, json: { status: "hijack" } },
        404,
      );
      await call(server, "GET", `${STATUSES}/${status.id}/source`, { token: bob.token }, 404);
      await call(server, "GET", `${STATUSES}/${status.id}/source`, {}, 401);
      const body = await call(server, "GET", `${STATUSES}/${status.id}`);
      assert.equal(body.content, "<p>short</p>");
      assert.equal(body.edited_at, null);
    });

    it("hides the history of a status the viewer may not see", async () => {
      const status = await post(server, alice, { status: "p", visibility: "private" });
      await call(server, "GET", `${STATUSES}/${status.id}/history`, {}, 404);
      await call(server, "GET", `${STATUSES}/${status.id}/history`, { token: alice.token });
    });
  });
});
