// The storage contract: behaviour every backend must show, written against the Storage ports
// only. A backend's test file calls runStorageContract with a way to open a fresh, empty store.

import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import type { IdPage, Storage } from "../ports.ts";
import { makeAccount, makeApp, makeCode, makeStatus, makeToken, makeUser } from "./fixtures.ts";

export interface ContractSubject {
  /** A freshly opened, empty storage. */
  storage: Storage;
  /** Opens the same data again; the suite closes the previous storage first. */
  reopen: () => Promise<Storage>;
  /** Removes the data (called after the suite has closed the storage). */
  cleanup: () => Promise<void>;
}

const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);
const sorted = (values: readonly string[]) => [...values].sort();

export function runStorageContract(name: string, open: () => Promise<ContractSubject>): void {
  describe(`storage contract: ${name}`, () => {
    let subject: ContractSubject;
    let storage: Storage;

    beforeEach(async () => {
      subject = await open();
      storage = subject.storage;
    });

    afterEach(async () => {
      await storage.close();
      await subject.cleanup();
    });

    /** Closes the storage and opens the same data again. */
    async function reopen(): Promise<Storage> {
      await storage.close();
      storage = await subject.reopen();
      return storage;
    }

    describe("accounts", () => {
      it("returns what was put, and undefined for unknown ids", async () => {
        const alice = makeAccount({ id: "1", username: "alice" });
        await storage.accounts.put(alice);
        assert.deepEqual(await storage.accounts.get("1"), alice);
        assert.equal(await storage.accounts.get("2"), undefined);
      });

      it("replaces a record on a second put", async () => {
        await storage.accounts.put(makeAccount({ id: "1", displayName: "Before" }));
        await storage.accounts.put(makeAccount({ id: "1", displayName: "After" }));
        assert.equal((await storage.accounts.get("1"))?.displayName, "After");
        assert.equal(await storage.accounts.countLocal(), 1);
      });

      it("hands out copies: mutating a read or a put object does not change the store", async () => {
        const account = makeAccount({ id: "1", displayName: "Original" });
        await storage.accounts.put(account);
        account.displayName = "Mutated input";
        const read = await storage.accounts.get("1");
        assert.ok(read);
        read.displayName = "Mutated read";
        read.fields.push({ name: "x", value: "y", valueHtml: "y", verifiedAt: null });
        const again = await storage.accounts.get("1");
        assert.equal(again?.displayName, "Original");
        assert.equal(again?.fields.length, 1);
      });

      it("getMany returns the found accounts and leaves missing ids out", async () => {
        await storage.accounts.put(makeAccount({ id: "1" }));
        await storage.accounts.put(makeAccount({ id: "3" }));
        const found = await storage.accounts.getMany(["3", "2", "1", "3"]);
        assert.deepEqual(sorted([...found.keys()]), ["1", "3"]);
        assert.equal(found.get("3")?.id, "3");
        assert.equal((await storage.accounts.getMany([])).size, 0);
      });

      it("finds by username case-insensitively, telling local from remote", async () => {
        await storage.accounts.put(makeAccount({ id: "1", username: "Alice" }));
        await storage.accounts.put(
          makeAccount({ id: "2", username: "alice", domain: "remote.example" }),
        );
        await storage.accounts.put(
          makeAccount({ id: "3", username: "bob", domain: "other.example" }),
        );
        assert.equal((await storage.accounts.findByUsername("alice", null))?.id, "1");
        assert.equal((await storage.accounts.findByUsername("ALICE", null))?.id, "1");
        assert.equal((await storage.accounts.findByUsername("alice", "remote.example"))?.id, "2");
        assert.equal((await storage.accounts.findByUsername("aLiCe", "Remote.Example"))?.id, "2");
        assert.equal(await storage.accounts.findByUsername("alice", "other.example"), undefined);
        assert.equal(await storage.accounts.findByUsername("bob", null), undefined);
        assert.equal(await storage.accounts.findByUsername("ali", null), undefined);
      });

      it("finds by uri", async () => {
        const remote = makeAccount({
          id: "2",
          username: "carol",
          domain: "remote.example",
          uri: "https://remote.example/ap/users/carol",
        });
        await storage.accounts.put(remote);
        assert.deepEqual(
          await storage.accounts.findByUri("https://remote.example/ap/users/carol"),
          remote,
        );
        assert.equal(
          await storage.accounts.findByUri("https://remote.example/ap/users/dave"),
          undefined,
        );
      });

      it("lookups follow a replaced record (old username and uri no longer match)", async () => {
        await storage.accounts.put(
          makeAccount({
            id: "1",
            username: "old",
            domain: "r.example",
            uri: "https://r.example/old",
          }),
        );
        await storage.accounts.put(
          makeAccount({
            id: "1",
            username: "new",
            domain: "r.example",
            uri: "https://r.example/new",
          }),
        );
        assert.equal(await storage.accounts.findByUsername("old", "r.example"), undefined);
        assert.equal(await storage.accounts.findByUri("https://r.example/old"), undefined);
        assert.equal((await storage.accounts.findByUsername("new", "r.example"))?.id, "1");
        assert.equal((await storage.accounts.findByUri("https://r.example/new"))?.id, "1");
      });

      describe("search", () => {
        beforeEach(async () => {
          await storage.accounts.put(makeAccount({ id: "1", username: "alice", displayName: "A" }));
          await storage.accounts.put(
            makeAccount({ id: "2", username: "alicewonder", displayName: "B" }),
          );
          await storage.accounts.put(
            makeAccount({ id: "3", username: "bob", displayName: "Alice's friend" }),
          );
          await storage.accounts.put(
            makeAccount({ id: "4", username: "alice", domain: "remote.example", displayName: "C" }),
          );
          await storage.accounts.put(makeAccount({ id: "5", username: "carol", displayName: "D" }));
          await storage.accounts.put(
            makeAccount({ id: "6", username: "malice", domain: "other.example", displayName: "E" }),
          );
        });

        const search = (query: string, limit = 40, offset = 0, localOnly = false) =>
          storage.accounts.search(query, { limit, offset, localOnly }).then(ids);

        it("puts exact username matches first, then the rest by id", async () => {
          assert.deepEqual(await search("alice"), ["1", "4", "2", "3", "6"]);
        });

        it("is case-insensitive and matches display names and username@domain", async () => {
          assert.deepEqual(await search("ALICE"), ["1", "4", "2", "3", "6"]);
          assert.deepEqual(await search("friend"), ["3"]);
          assert.deepEqual(await search("alice@remote.example"), ["4"]);
          assert.deepEqual(await search("other.example"), ["6"]);
          assert.deepEqual(await search("nobody"), []);
        });

        it("limits to local accounts on request", async () => {
          assert.deepEqual(await search("alice", 40, 0, true), ["1", "2", "3"]);
        });

        it("applies limit and offset after ordering", async () => {
          assert.deepEqual(await search("alice", 2), ["1", "4"]);
          assert.deepEqual(await search("alice", 2, 1), ["4", "2"]);
          assert.deepEqual(await search("alice", 40, 4), ["6"]);
          assert.deepEqual(await search("alice", 40, 5), []);
        });
      });

      it("counts local accounts only", async () => {
        assert.equal(await storage.accounts.countLocal(), 0);
        await storage.accounts.put(makeAccount({ id: "1" }));
        await storage.accounts.put(makeAccount({ id: "2" }));
        await storage.accounts.put(makeAccount({ id: "3", domain: "remote.example" }));
        assert.equal(await storage.accounts.countLocal(), 2);
      });

      it("lists the distinct remote domains", async () => {
        assert.deepEqual(await storage.accounts.domains(), []);
        await storage.accounts.put(makeAccount({ id: "1" }));
        await storage.accounts.put(makeAccount({ id: "2", username: "a", domain: "one.example" }));
        await storage.accounts.put(makeAccount({ id: "3", username: "b", domain: "one.example" }));
        await storage.accounts.put(makeAccount({ id: "4", username: "c", domain: "two.example" }));
        assert.deepEqual(sorted(await storage.accounts.domains()), ["one.example", "two.example"]);
      });
    });

    describe("users", () => {
      it("round-trips, replaces, and finds by email case-insensitively", async () => {
        const user = makeUser({ accountId: "1", email: "Alice@Example.COM" });
        await storage.users.put(user);
        assert.deepEqual(await storage.users.get("1"), user);
        assert.equal(await storage.users.get("2"), undefined);
        assert.equal((await storage.users.findByEmail("alice@example.com"))?.accountId, "1");
        assert.equal((await storage.users.findByEmail("ALICE@EXAMPLE.COM"))?.accountId, "1");
        assert.equal(await storage.users.findByEmail("bob@example.com"), undefined);

        await storage.users.put({ ...user, email: "new@example.com", role: "admin" });
        assert.equal((await storage.users.get("1"))?.role, "admin");
        assert.equal(await storage.users.findByEmail("alice@example.com"), undefined);
        assert.equal((await storage.users.findByEmail("NEW@example.com"))?.accountId, "1");
      });

      it("counts and lists every user", async () => {
        assert.equal(await storage.users.count(), 0);
        assert.deepEqual(await storage.users.list(), []);
        await storage.users.put(makeUser({ accountId: "2" }));
        await storage.users.put(makeUser({ accountId: "1" }));
        await storage.users.put(makeUser({ accountId: "2", locale: "fr" }));
        assert.equal(await storage.users.count(), 2);
        const list = await storage.users.list();
        assert.deepEqual(sorted(list.map((u) => u.accountId)), ["1", "2"]);
        assert.equal(list.find((u) => u.accountId === "2")?.locale, "fr");
      });
    });

    describe("apps", () => {
      it("round-trips, replaces, and finds by client id", async () => {
        const app = makeApp({ id: "1", clientId: "abc" });
        await storage.apps.put(app);
        await storage.apps.put(makeApp({ id: "2", clientId: "def" }));
        assert.deepEqual(await storage.apps.get("1"), app);
        assert.equal(await storage.apps.get("3"), undefined);
        assert.equal((await storage.apps.findByClientId("def"))?.id, "2");
        assert.equal(await storage.apps.findByClientId("ABC"), undefined, "client ids are exact");

        await storage.apps.put({ ...app, name: "Renamed" });
        assert.equal((await storage.apps.findByClientId("abc"))?.name, "Renamed");
      });
    });

    describe("tokens", () => {
      it("finds by id, token hash and refresh token hash", async () => {
        const token = makeToken({ id: "1", tokenHash: "t1", refreshTokenHash: "r1" });
        await storage.tokens.put(token);
        await storage.tokens.put(makeToken({ id: "2", tokenHash: "t2", refreshTokenHash: null }));
        assert.deepEqual(await storage.tokens.get("1"), token);
        assert.equal(await storage.tokens.get("3"), undefined);
        assert.equal((await storage.tokens.findByTokenHash("t1"))?.id, "1");
        assert.equal((await storage.tokens.findByTokenHash("t2"))?.id, "2");
        assert.equal(await storage.tokens.findByTokenHash("r1"), undefined);
        assert.equal((await storage.tokens.findByRefreshTokenHash("r1"))?.id, "1");
        assert.equal(await storage.tokens.findByRefreshTokenHash("t1"), undefined);
      });

      it("follows a rotated refresh token and a revocation", async () => {
        const token = makeToken({ id: "1", tokenHash: "t1", refreshTokenHash: "r1" });
        await storage.tokens.put(token);
        const revokedAt = "2025-02-01T00:00:00.000Z";
        await storage.tokens.put({ ...token, refreshTokenHash: "r2", revokedAt });
        assert.equal(await storage.tokens.findByRefreshTokenHash("r1"), undefined);
        assert.equal((await storage.tokens.findByRefreshTokenHash("r2"))?.id, "1");
        assert.equal((await storage.tokens.findByTokenHash("t1"))?.revokedAt, revokedAt);
      });

      it("lists the tokens of an account", async () => {
        await storage.tokens.put(makeToken({ id: "1", accountId: "10" }));
        await storage.tokens.put(makeToken({ id: "2", accountId: "20" }));
        await storage.tokens.put(makeToken({ id: "3", accountId: "10" }));
        await storage.tokens.put(makeToken({ id: "4", accountId: null }));
        assert.deepEqual(sorted(ids(await storage.tokens.listByAccount("10"))), ["1", "3"]);
        assert.deepEqual(ids(await storage.tokens.listByAccount("20")), ["2"]);
        assert.deepEqual(await storage.tokens.listByAccount("30"), []);
      });
    });

    describe("authorization codes", () => {
      it("take() returns a code once, then undefined", async () => {
        const code = makeCode({ codeHash: "c1", scopes: ["read", "write"] });
        await storage.authorizationCodes.put(code);
        assert.deepEqual(await storage.authorizationCodes.take("c1"), code);
        assert.equal(await storage.authorizationCodes.take("c1"), undefined);
        assert.equal(await storage.authorizationCodes.take("unknown"), undefined);
      });

      it("gives a code to only one of several concurrent takes", async () => {
        await storage.authorizationCodes.put(makeCode({ codeHash: "c1" }));
        const taken = await Promise.all(
          Array.from({ length: 5 }, () => storage.authorizationCodes.take("c1")),
        );
        assert.equal(taken.filter((c) => c !== undefined).length, 1);
      });
    });

    describe("statuses", () => {
      it("round-trips, replaces, and getMany leaves missing ids out", async () => {
        const status = makeStatus({ id: "10", accountId: "1" });
        await storage.statuses.put(status);
        await storage.statuses.put(makeStatus({ id: "20", accountId: "2" }));
        assert.deepEqual(await storage.statuses.get("10"), status);
        assert.equal(await storage.statuses.get("30"), undefined);
        const found = await storage.statuses.getMany(["30", "20", "10"]);
        assert.deepEqual(sorted([...found.keys()]), ["10", "20"]);

        const edited = { ...status, text: "edited", editedAt: "2025-03-01T00:00:00.000Z" };
        await storage.statuses.put(edited);
        assert.deepEqual(await storage.statuses.get("10"), edited);
        assert.deepEqual(ids(await storage.statuses.listByAccount("1", { limit: 20 })), ["10"]);
        assert.equal(await storage.statuses.countByAccount("1"), 1);
      });

      it("lists an account's statuses newest first, comparing ids as numbers", async () => {
        // Put out of order; "100" and "9" check numeric (not string) ordering.
        for (const id of ["20", "100", "9", "30"]) {
          await storage.statuses.put(makeStatus({ id, accountId: "1" }));
        }
        await storage.statuses.put(makeStatus({ id: "25", accountId: "2" }));
        assert.deepEqual(ids(await storage.statuses.listByAccount("1", { limit: 20 })), [
          "100",
          "30",
          "20",
          "9",
        ]);
        assert.deepEqual(ids(await storage.statuses.listByAccount("2", { limit: 20 })), ["25"]);
        assert.deepEqual(await storage.statuses.listByAccount("3", { limit: 20 }), []);
      });

      describe("id windows (IdPage)", () => {
        beforeEach(async () => {
          // Account 1: 9, 10, 20 … 100. Account 2's statuses and a deleted one interleave.
          const puts: Promise<void>[] = [];
          for (const id of ["9", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"]) {
            puts.push(storage.statuses.put(makeStatus({ id, accountId: "1" })));
          }
          puts.push(storage.statuses.put(makeStatus({ id: "55", accountId: "2" })));
          puts.push(storage.statuses.put(makeStatus({ id: "85", accountId: "2" })));
          puts.push(storage.statuses.put(makeStatus({ id: "75", accountId: "1", deleted: true })));
          await Promise.all(puts);
        });

        const cases: [IdPage, string[]][] = [
          [{ limit: 40 }, ["100", "90", "80", "70", "60", "50", "40", "30", "20", "10", "9"]],
          [{ limit: 3 }, ["100", "90", "80"]],
          [{ limit: 3, maxId: "80" }, ["70", "60", "50"]],
          [{ limit: 3, maxId: "75" }, ["70", "60", "50"]],
          [
            { limit: 40, maxId: "1000" },
            ["100", "90", "80", "70", "60", "50", "40", "30", "20", "10", "9"],
          ],
          [{ limit: 40, maxId: "9" }, []],
          [{ limit: 3, sinceId: "50" }, ["100", "90", "80"]],
          [{ limit: 40, sinceId: "100" }, []],
          [{ limit: 3, minId: "50" }, ["80", "70", "60"]],
          [{ limit: 3, minId: "45" }, ["70", "60", "50"]],
          [{ limit: 3, minId: "9" }, ["30", "20", "10"]],
          [{ limit: 3, minId: "1" }, ["20", "10", "9"]],
          [{ limit: 40, minId: "100" }, []],
          [{ limit: 40, sinceId: "50", maxId: "90" }, ["80", "70", "60"]],
          [{ limit: 2, sinceId: "50", maxId: "90" }, ["80", "70"]],
          [{ limit: 40, minId: "50", maxId: "90" }, ["80", "70", "60"]],
          [{ limit: 2, minId: "50", maxId: "90" }, ["70", "60"]],
          [{ limit: 40, sinceId: "90", maxId: "50" }, []],
        ];
        for (const [page, expected] of cases) {
          it(`${JSON.stringify(page)} → [${expected.join(", ")}]`, async () => {
            assert.deepEqual(ids(await storage.statuses.listByAccount("1", page)), expected);
          });
        }
      });

      it("keeps deleted statuses out of lists and counts, yet returns them by id", async () => {
        await storage.statuses.put(makeStatus({ id: "1", accountId: "1" }));
        const status = makeStatus({ id: "2", accountId: "1" });
        await storage.statuses.put(status);
        assert.equal(await storage.statuses.countByAccount("1"), 2);
        assert.equal(await storage.statuses.countLocal(), 2);

        const deletedAt = "2025-04-01T00:00:00.000Z";
        await storage.statuses.put({ ...status, deleted: true, deletedAt });
        assert.deepEqual(ids(await storage.statuses.listByAccount("1", { limit: 20 })), ["1"]);
        assert.equal(await storage.statuses.countByAccount("1"), 1);
        assert.equal(await storage.statuses.countLocal(), 1);
        const read = await storage.statuses.get("2");
        assert.equal(read?.deleted, true);
        assert.equal(read?.deletedAt, deletedAt);
        assert.equal((await storage.statuses.getMany(["2"])).get("2")?.deleted, true);

        // A status stored as deleted from the start is never listed either.
        await storage.statuses.put(makeStatus({ id: "3", accountId: "1", deleted: true }));
        assert.equal(await storage.statuses.countByAccount("1"), 1);

        // Restoring it (a failed delete rolled back) lists it again.
        await storage.statuses.put(status);
        assert.deepEqual(ids(await storage.statuses.listByAccount("1", { limit: 20 })), ["2", "1"]);
        assert.equal(await storage.statuses.countByAccount("1"), 2);
      });

      it("counts per account and local statuses only", async () => {
        await storage.statuses.put(makeStatus({ id: "1", accountId: "1" }));
        await storage.statuses.put(makeStatus({ id: "2", accountId: "1" }));
        await storage.statuses.put(makeStatus({ id: "3", accountId: "2" }));
        await storage.statuses.put(makeStatus({ id: "4", accountId: "9", local: false }));
        await storage.statuses.put(makeStatus({ id: "5", accountId: "9", local: false }));
        assert.equal(await storage.statuses.countByAccount("1"), 2);
        assert.equal(await storage.statuses.countByAccount("2"), 1);
        assert.equal(await storage.statuses.countByAccount("9"), 2);
        assert.equal(await storage.statuses.countByAccount("7"), 0);
        assert.equal(await storage.statuses.countLocal(), 3);
      });
    });

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
        await storage.accounts.put(alice);
        await storage.accounts.put(remote);
        await storage.users.put(user);
        await storage.apps.put(app);
        await storage.tokens.put(token);
        await storage.authorizationCodes.put(kept);
        await storage.authorizationCodes.put(makeCode({ codeHash: "taken" }));
        await storage.authorizationCodes.take("taken");
        for (const status of statuses) await storage.statuses.put(status);

        const s = await reopen();
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
        const again = await reopen();
        assert.equal(await again.authorizationCodes.take("kept"), undefined);
      });

      it("keeps the last of several replacements across reopen", async () => {
        for (const name of ["one", "two", "three"]) {
          await storage.accounts.put(makeAccount({ id: "1", displayName: name }));
        }
        const s = await reopen();
        assert.equal((await s.accounts.get("1"))?.displayName, "three");
      });

      it("close() finishes writes still in flight", async () => {
        const pending = [
          storage.accounts.put(makeAccount({ id: "1" })),
          storage.statuses.put(makeStatus({ id: "2", accountId: "1" })),
        ];
        const s = await reopen(); // closes first, without waiting on the puts itself
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
          ...accounts.map((a) => storage.accounts.put(a)),
          ...statuses.map((s) => storage.statuses.put(s)),
        ]);
        assert.equal(await storage.accounts.countLocal(), 100);

        const s = await reopen();
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
  });
}
