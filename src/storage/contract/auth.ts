// Storage contract: users, OAuth apps, access tokens and authorization codes.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ContractContext, ids, sorted } from "./context.ts";
import { makeApp, makeCode, makeToken, makeUser } from "./fixtures.ts";

export function authContract(t: ContractContext): void {
  describe("users", () => {
    it("removes a user, and its address is free again", async () => {
      await t.storage.users.put(makeUser({ accountId: "1", email: "gone@example.com" }));
      assert.equal(await t.storage.users.remove("1"), true);
      assert.equal(await t.storage.users.get("1"), undefined);
      assert.equal(await t.storage.users.findByEmail("gone@example.com"), undefined);
      assert.equal(await t.storage.users.count(), 0);
      assert.equal(await t.storage.users.remove("1"), false);
    });

    it("round-trips, replaces, and finds by email case-insensitively", async () => {
      const user = makeUser({ accountId: "1", email: "Alice@Example.COM" });
      await t.storage.users.put(user);
      assert.deepEqual(await t.storage.users.get("1"), user);
      assert.equal(await t.storage.users.get("2"), undefined);
      assert.equal((await t.storage.users.findByEmail("alice@example.com"))?.accountId, "1");
      assert.equal((await t.storage.users.findByEmail("ALICE@EXAMPLE.COM"))?.accountId, "1");
      assert.equal(await t.storage.users.findByEmail("bob@example.com"), undefined);

      await t.storage.users.put({ ...user, email: "new@example.com", role: "admin" });
      assert.equal((await t.storage.users.get("1"))?.role, "admin");
      assert.equal(await t.storage.users.findByEmail("alice@example.com"), undefined);
      assert.equal((await t.storage.users.findByEmail("NEW@example.com"))?.accountId, "1");
    });

    it("counts and lists every user", async () => {
      assert.equal(await t.storage.users.count(), 0);
      assert.deepEqual(await t.storage.users.list(), []);
      await t.storage.users.put(makeUser({ accountId: "2" }));
      await t.storage.users.put(makeUser({ accountId: "1" }));
      await t.storage.users.put(makeUser({ accountId: "2", locale: "fr" }));
      assert.equal(await t.storage.users.count(), 2);
      const list = await t.storage.users.list();
      assert.deepEqual(sorted(list.map((u) => u.accountId)), ["1", "2"]);
      assert.equal(list.find((u) => u.accountId === "2")?.locale, "fr");
    });
  });

  describe("apps", () => {
    it("round-trips, replaces, and finds by client id", async () => {
      const app = makeApp({ id: "1", clientId: "abc" });
      await t.storage.apps.put(app);
      await t.storage.apps.put(makeApp({ id: "2", clientId: "def" }));
      assert.deepEqual(await t.storage.apps.get("1"), app);
      assert.equal(await t.storage.apps.get("3"), undefined);
      assert.equal((await t.storage.apps.findByClientId("def"))?.id, "2");
      assert.equal(await t.storage.apps.findByClientId("ABC"), undefined, "client ids are exact");

      await t.storage.apps.put({ ...app, name: "Renamed" });
      assert.equal((await t.storage.apps.findByClientId("abc"))?.name, "Renamed");
    });
  });

  describe("tokens", () => {
    it("finds by id, token hash and refresh token hash", async () => {
      const token = makeToken({ id: "1", tokenHash: "t1", refreshTokenHash: "r1" });
      await t.storage.tokens.put(token);
      await t.storage.tokens.put(makeToken({ id: "2", tokenHash: "t2", refreshTokenHash: null }));
      assert.deepEqual(await t.storage.tokens.get("1"), token);
      assert.equal(await t.storage.tokens.get("3"), undefined);
      assert.equal((await t.storage.tokens.findByTokenHash("t1"))?.id, "1");
      assert.equal((await t.storage.tokens.findByTokenHash("t2"))?.id, "2");
      assert.equal(await t.storage.tokens.findByTokenHash("r1"), undefined);
      assert.equal((await t.storage.tokens.findByRefreshTokenHash("r1"))?.id, "1");
      assert.equal(await t.storage.tokens.findByRefreshTokenHash("t1"), undefined);
    });

    it("follows a rotated refresh token and a revocation", async () => {
      const token = makeToken({ id: "1", tokenHash: "t1", refreshTokenHash: "r1" });
      await t.storage.tokens.put(token);
      const revokedAt = "2025-02-01T00:00:00.000Z";
      await t.storage.tokens.put({ ...token, refreshTokenHash: "r2", revokedAt });
      assert.equal(await t.storage.tokens.findByRefreshTokenHash("r1"), undefined);
      assert.equal((await t.storage.tokens.findByRefreshTokenHash("r2"))?.id, "1");
      assert.equal((await t.storage.tokens.findByTokenHash("t1"))?.revokedAt, revokedAt);
    });

    it("lists the tokens of an account", async () => {
      await t.storage.tokens.put(makeToken({ id: "1", accountId: "10" }));
      await t.storage.tokens.put(makeToken({ id: "2", accountId: "20" }));
      await t.storage.tokens.put(makeToken({ id: "3", accountId: "10" }));
      await t.storage.tokens.put(makeToken({ id: "4", accountId: null }));
      assert.deepEqual(sorted(ids(await t.storage.tokens.listByAccount("10"))), ["1", "3"]);
      assert.deepEqual(ids(await t.storage.tokens.listByAccount("20")), ["2"]);
      assert.deepEqual(await t.storage.tokens.listByAccount("30"), []);
    });
  });

  describe("authorization codes", () => {
    it("take() returns a code once, then undefined", async () => {
      const code = makeCode({ codeHash: "c1", scopes: ["read", "write"] });
      await t.storage.authorizationCodes.put(code);
      assert.deepEqual(await t.storage.authorizationCodes.take("c1"), code);
      assert.equal(await t.storage.authorizationCodes.take("c1"), undefined);
      assert.equal(await t.storage.authorizationCodes.take("unknown"), undefined);
    });

    it("gives a code to only one of several concurrent takes", async () => {
      await t.storage.authorizationCodes.put(makeCode({ codeHash: "c1" }));
      const taken = await Promise.all(
        Array.from({ length: 5 }, () => t.storage.authorizationCodes.take("c1")),
      );
      assert.equal(taken.filter((c) => c !== undefined).length, 1);
    });
  });
}
