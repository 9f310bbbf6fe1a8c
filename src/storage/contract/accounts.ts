// Storage contract: accounts.

import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { type ContractContext, ids, sorted, tryToMutate } from "./context.ts";
import { makeAccount, makeStatus } from "./fixtures.ts";

export function accountContract(t: ContractContext): void {
  describe("accounts", () => {
    it("removes an account, and its name is free again", async () => {
      await t.storage.accounts.put(makeAccount({ id: "1", username: "gone" }));
      assert.equal(await t.storage.accounts.remove("1"), true);
      assert.equal(await t.storage.accounts.get("1"), undefined);
      assert.equal(await t.storage.accounts.findByUsername("gone", null), undefined);
      assert.equal(await t.storage.accounts.countLocal(), 0);
      assert.equal(await t.storage.accounts.remove("1"), false);
    });

    it("returns what was put, and undefined for unknown ids", async () => {
      const alice = makeAccount({ id: "1", username: "alice" });
      await t.storage.accounts.put(alice);
      assert.deepEqual(await t.storage.accounts.get("1"), alice);
      assert.equal(await t.storage.accounts.get("2"), undefined);
    });

    it("replaces a record on a second put", async () => {
      await t.storage.accounts.put(makeAccount({ id: "1", displayName: "Before" }));
      await t.storage.accounts.put(makeAccount({ id: "1", displayName: "After" }));
      assert.equal((await t.storage.accounts.get("1"))?.displayName, "After");
      assert.equal(await t.storage.accounts.countLocal(), 1);
    });

    it("keeps its own state: mutating a read or a put object does not change the store", async () => {
      const account = makeAccount({ id: "1", displayName: "Original" });
      await t.storage.accounts.put(account);
      account.displayName = "Mutated input";
      const read = await t.storage.accounts.get("1");
      assert.ok(read);
      tryToMutate(() => {
        read.displayName = "Mutated read";
      });
      tryToMutate(() => {
        read.fields.push({ name: "x", value: "y", valueHtml: "y", verifiedAt: null });
      });
      const again = await t.storage.accounts.get("1");
      assert.equal(again?.displayName, "Original");
      assert.equal(again?.fields.length, 1);
    });

    it("getMany returns the found accounts and leaves missing ids out", async () => {
      await t.storage.accounts.put(makeAccount({ id: "1" }));
      await t.storage.accounts.put(makeAccount({ id: "3" }));
      const found = await t.storage.accounts.getMany(["3", "2", "1", "3"]);
      assert.deepEqual(sorted([...found.keys()]), ["1", "3"]);
      assert.equal(found.get("3")?.id, "3");
      assert.equal((await t.storage.accounts.getMany([])).size, 0);
    });

    it("finds by username case-insensitively, telling local from remote", async () => {
      await t.storage.accounts.put(makeAccount({ id: "1", username: "Alice" }));
      await t.storage.accounts.put(
        makeAccount({ id: "2", username: "alice", domain: "remote.example" }),
      );
      await t.storage.accounts.put(
        makeAccount({ id: "3", username: "bob", domain: "other.example" }),
      );
      assert.equal((await t.storage.accounts.findByUsername("alice", null))?.id, "1");
      assert.equal((await t.storage.accounts.findByUsername("ALICE", null))?.id, "1");
      assert.equal((await t.storage.accounts.findByUsername("alice", "remote.example"))?.id, "2");
      assert.equal((await t.storage.accounts.findByUsername("aLiCe", "Remote.Example"))?.id, "2");
      assert.equal(await t.storage.accounts.findByUsername("alice", "other.example"), undefined);
      assert.equal(await t.storage.accounts.findByUsername("bob", null), undefined);
      assert.equal(await t.storage.accounts.findByUsername("ali", null), undefined);
    });

    it("finds by uri", async () => {
      const remote = makeAccount({
        id: "2",
        username: "carol",
        domain: "remote.example",
        uri: "https://remote.example/ap/users/carol",
      });
      await t.storage.accounts.put(remote);
      assert.deepEqual(
        await t.storage.accounts.findByUri("https://remote.example/ap/users/carol"),
        remote,
      );
      assert.equal(
        await t.storage.accounts.findByUri("https://remote.example/ap/users/dave"),
        undefined,
      );
    });

    it("lookups follow a replaced record (old username and uri no longer match)", async () => {
      await t.storage.accounts.put(
        makeAccount({
          id: "1",
          username: "old",
          domain: "r.example",
          uri: "https://r.example/old",
        }),
      );
      await t.storage.accounts.put(
        makeAccount({
          id: "1",
          username: "new",
          domain: "r.example",
          uri: "https://r.example/new",
        }),
      );
      assert.equal(await t.storage.accounts.findByUsername("old", "r.example"), undefined);
      assert.equal(await t.storage.accounts.findByUri("https://r.example/old"), undefined);
      assert.equal((await t.storage.accounts.findByUsername("new", "r.example"))?.id, "1");
      assert.equal((await t.storage.accounts.findByUri("https://r.example/new"))?.id, "1");
    });

    describe("search", () => {
      beforeEach(async () => {
        await t.storage.accounts.put(makeAccount({ id: "1", username: "alice", displayName: "A" }));
        await t.storage.accounts.put(
          makeAccount({ id: "2", username: "alicewonder", displayName: "B" }),
        );
        await t.storage.accounts.put(
          makeAccount({ id: "3", username: "bob", displayName: "Alice's friend" }),
        );
        await t.storage.accounts.put(
          makeAccount({ id: "4", username: "alice", domain: "remote.example", displayName: "C" }),
        );
        await t.storage.accounts.put(makeAccount({ id: "5", username: "carol", displayName: "D" }));
        await t.storage.accounts.put(
          makeAccount({ id: "6", username: "malice", domain: "other.example", displayName: "E" }),
        );
      });

      const search = (query: string, limit = 40, offset = 0, localOnly = false) =>
        t.storage.accounts.search(query, { limit, offset, localOnly }).then(ids);

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
      assert.equal(await t.storage.accounts.countLocal(), 0);
      await t.storage.accounts.put(makeAccount({ id: "1" }));
      await t.storage.accounts.put(makeAccount({ id: "2" }));
      await t.storage.accounts.put(makeAccount({ id: "3", domain: "remote.example" }));
      assert.equal(await t.storage.accounts.countLocal(), 2);
    });

    describe("directory", () => {
      beforeEach(async () => {
        const put = (fields: Parameters<typeof makeAccount>[0]) =>
          t.storage.accounts.put(makeAccount({ discoverable: true, ...fields }));
        await put({ id: "1" });
        await put({ id: "2", domain: "one.example", username: "a" });
        await put({ id: "3" });
        await put({ id: "4", discoverable: false });
        await put({ id: "5", domain: "two.example", username: "b" });
        await put({ id: "6", domain: "two.example", username: "c", suspended: true });
        await put({ id: "7" });
        // Newest statuses: account 1's, then 5's, then 2's; 3 and 7 have none.
        const statuses: [string, string, string][] = [
          ["10", "2", "2025-01-01T00:00:00.000Z"],
          ["20", "5", "2025-01-02T00:00:00.000Z"],
          ["30", "1", "2025-01-03T00:00:00.000Z"],
          ["40", "4", "2025-01-04T00:00:00.000Z"],
        ];
        for (const [id, accountId, createdAt] of statuses) {
          await t.storage.statuses.put(makeStatus({ id, accountId, createdAt }));
        }
      });
      const directory = async (
        query: Partial<Parameters<typeof t.storage.accounts.directory>[0]>,
      ) =>
        ids(
          await t.storage.accounts.directory({
            order: "new",
            localOnly: false,
            offset: 0,
            limit: 40,
            excludeIds: [],
            excludeDomains: [],
            ...query,
          }),
        );

      it("lists discoverable, unsuspended accounts, newest first", async () => {
        assert.deepEqual(await directory({}), ["7", "5", "3", "2", "1"]);
        assert.deepEqual(await directory({ localOnly: true }), ["7", "3", "1"]);
        assert.deepEqual(await directory({ limit: 2, offset: 1 }), ["5", "3"]);
      });

      it("orders by the newest status, accounts without one last", async () => {
        assert.deepEqual(await directory({ order: "active" }), ["1", "5", "2", "7", "3"]);
        assert.deepEqual(await directory({ order: "active", localOnly: true }), ["1", "7", "3"]);
        assert.deepEqual(await directory({ order: "active", offset: 2, limit: 2 }), ["2", "7"]);
      });

      it("leaves out the accounts and domains given", async () => {
        assert.deepEqual(await directory({ excludeIds: ["7", "1", "x"] }), ["5", "3", "2"]);
        assert.deepEqual(await directory({ excludeDomains: ["two.example"] }), [
          "7",
          "3",
          "2",
          "1",
        ]);
      });
    });

    it("lists accounts by origin and domain in id windows, newest first (admin list)", async () => {
      const put = (fields: Parameters<typeof makeAccount>[0]) =>
        t.storage.accounts.put(makeAccount(fields));
      await put({ id: "1" });
      await put({ id: "2", domain: "One.example", username: "a" });
      await put({ id: "3", silencedAt: "2025-01-01T00:00:00.000Z" });
      await put({ id: "4", domain: "two.example", username: "b", suspended: true });
      await put({ id: "5", domain: "one.example", username: "c" });
      await put({ id: "6", suspended: true, suspensionOrigin: "local" });
      const list = async (
        filter: Parameters<typeof t.storage.accounts.list>[0],
        page: Partial<Parameters<typeof t.storage.accounts.list>[1]> = {},
      ) => ids(await t.storage.accounts.list(filter, { limit: 40, ...page }));
      assert.deepEqual(await list({ origin: "all" }), ["6", "5", "4", "3", "2", "1"]);
      assert.deepEqual(await list({ origin: "local" }), ["6", "3", "1"]);
      assert.deepEqual(await list({ origin: "remote" }), ["5", "4", "2"]);
      assert.deepEqual(await list({ origin: "all", domain: "ONE.example" }), ["5", "2"]);
      assert.deepEqual(await list({ origin: "local", domain: "one.example" }), []);
      assert.deepEqual(await list({ origin: "all" }, { limit: 2, maxId: "5" }), ["4", "3"]);
      assert.deepEqual(await list({ origin: "all" }, { limit: 2, minId: "2" }), ["4", "3"]);
      assert.deepEqual(await list({ origin: "all" }, { limit: 2, sinceId: "2" }), ["6", "5"]);
      assert.deepEqual(await list({ origin: "remote" }, { limit: 1, minId: "2" }), ["4"]);
      assert.equal((await t.storage.accounts.get("3"))?.silencedAt, "2025-01-01T00:00:00.000Z");
      await t.storage.accounts.remove("5");
      assert.deepEqual(await list({ origin: "remote" }), ["4", "2"]);
    });

    it("lists the distinct remote domains", async () => {
      assert.deepEqual(await t.storage.accounts.domains(), []);
      await t.storage.accounts.put(makeAccount({ id: "1" }));
      await t.storage.accounts.put(makeAccount({ id: "2", username: "a", domain: "one.example" }));
      await t.storage.accounts.put(makeAccount({ id: "3", username: "b", domain: "one.example" }));
      await t.storage.accounts.put(makeAccount({ id: "4", username: "c", domain: "two.example" }));
      assert.deepEqual(sorted(await t.storage.accounts.domains()), ["one.example", "two.example"]);
    });
  });
}
