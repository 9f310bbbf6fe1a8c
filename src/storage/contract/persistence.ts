// Storage contract: everything written survives close and reopen.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import { type ContractContext, ids } from "./context.ts";
import { makeAccount, makeApp, makeCode, makeStatus, makeToken, makeUser } from "./fixtures.ts";

export function persistenceContract(t: ContractContext): void {
  describe("persistence", () => {
    it("keeps everything written across close and reopen", async () => {
      const alice = makeAccount({ id: "1", username: "alice" });
      const remote = makeAccount({ id: "2", username: "bob", domain: "remote.example" });
      const user = makeUser({ accountId: "1", email: "alice@example.com" });
      const app = makeApp({ id: "3", clientId: "client-3" });
      const token = makeToken({
        id: "4",
        accountId: "1",
        tokenHash: "t4",
        refreshTokenHash: "r4",
      });
      const kept = makeCode({ codeHash: "kept" });
      const statuses: Status[] = [
        makeStatus({ id: "10", accountId: "1" }),
        makeStatus({
          id: "11",
          accountId: "1",
          deleted: true,
          deletedAt: "2025-05-01T00:00:00.000Z",
        }),
        makeStatus({ id: "12", accountId: "2", local: false }),
      ];
      await t.storage.accounts.put(alice);
      await t.storage.accounts.put(remote);
      await t.storage.users.put(user);
      await t.storage.apps.put(app);
      await t.storage.tokens.put(token);
      await t.storage.authorizationCodes.put(kept);
      await t.storage.authorizationCodes.put(makeCode({ codeHash: "taken" }));
      await t.storage.authorizationCodes.take("taken");
      for (const status of statuses) await t.storage.statuses.put(status);

      const s = await t.reopen();
      assert.deepEqual(await s.accounts.get("1"), alice);
      assert.deepEqual(await s.accounts.findByUsername("ALICE", null), alice);
      assert.deepEqual(await s.accounts.findByUsername("bob", "remote.example"), remote);
      assert.deepEqual(await s.accounts.findByUri(remote.uri), remote);
      assert.deepEqual(
        ids(await s.accounts.search("bob", { limit: 5, offset: 0, localOnly: false })),
        ["2"],
      );
      assert.equal(await s.accounts.countLocal(), 1);
      assert.deepEqual(await s.accounts.domains(), ["remote.example"]);
      assert.equal((await s.statuses.findByUri(statuses[0]!.uri))?.id, statuses[0]!.id);
      assert.deepEqual(await s.users.get("1"), user);
      assert.deepEqual(await s.users.findByEmail("Alice@Example.com"), user);
      assert.equal(await s.users.count(), 1);
      assert.deepEqual(await s.apps.findByClientId("client-3"), app);
      assert.deepEqual(await s.tokens.findByTokenHash("t4"), token);
      assert.deepEqual(await s.tokens.findByRefreshTokenHash("r4"), token);
      assert.deepEqual(await s.tokens.listByAccount("1"), [token]);
      assert.equal(await s.authorizationCodes.take("taken"), undefined);
      assert.deepEqual(await s.authorizationCodes.take("kept"), kept);
      for (const status of statuses) assert.deepEqual(await s.statuses.get(status.id), status);
      assert.deepEqual(ids(await s.statuses.listByAccount("1", { limit: 20 })), ["10"]);
      assert.equal(await s.statuses.countByAccount("1"), 1);
      assert.equal(await s.statuses.countByAccount("2"), 1);
      assert.equal(await s.statuses.countLocal(), 1);

      // And the taken code stays taken after another reopen.
      const again = await t.reopen();
      assert.equal(await again.authorizationCodes.take("kept"), undefined);
    });

    it("keeps the last of several replacements across reopen", async () => {
      for (const name of ["one", "two", "three"]) {
        await t.storage.accounts.put(makeAccount({ id: "1", displayName: name }));
      }
      const s = await t.reopen();
      assert.equal((await s.accounts.get("1"))?.displayName, "three");
    });

    it("close() finishes writes still in flight", async () => {
      const pending = [
        t.storage.accounts.put(makeAccount({ id: "1" })),
        t.storage.statuses.put(makeStatus({ id: "2", accountId: "1" })),
      ];
      const s = await t.reopen(); // closes first, without waiting on the puts itself
      await Promise.all(pending);
      assert.equal((await s.accounts.get("1"))?.id, "1");
      assert.equal((await s.statuses.get("2"))?.id, "2");
    });

    it("keeps all of 200 concurrent puts", async () => {
      const accounts: Account[] = [];
      const statuses: Status[] = [];
      for (let i = 1; i <= 100; i++) {
        accounts.push(makeAccount({ id: String(i), username: `user${i}` }));
        statuses.push(makeStatus({ id: String(1000 + i), accountId: String((i % 7) + 1) }));
      }
      await Promise.all([
        ...accounts.map((a) => t.storage.accounts.put(a)),
        ...statuses.map((s) => t.storage.statuses.put(s)),
      ]);
      assert.equal(await t.storage.accounts.countLocal(), 100);

      const s = await t.reopen();
      const foundAccounts = await s.accounts.getMany(ids(accounts));
      assert.equal(foundAccounts.size, 100);
      for (const account of accounts) assert.deepEqual(foundAccounts.get(account.id), account);
      const foundStatuses = await s.statuses.getMany(ids(statuses));
      assert.equal(foundStatuses.size, 100);
      for (const status of statuses) assert.deepEqual(foundStatuses.get(status.id), status);
      assert.equal(await s.accounts.countLocal(), 100);
      assert.equal(await s.statuses.countLocal(), 100);
      assert.equal((await s.accounts.findByUsername("user77", null))?.id, "77");
    });
  });
}
