// Storage contract: filters with their keywords and statuses, listed per account oldest first,
// replaced whole on put, kept across a reopen.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CustomFilter } from "../../domain/filter.ts";
import { type ContractContext, ids } from "./context.ts";

function makeFilter(overrides: Partial<CustomFilter> & Pick<CustomFilter, "id">): CustomFilter {
  return {
    accountId: "1",
    title: "Spoilers",
    context: ["home", "public"],
    action: "warn",
    expiresAt: null,
    keywords: [{ id: "500", keyword: "finale", wholeWord: true }],
    statuses: [{ id: "600", statusId: "9000" }],
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export function filterContract(t: ContractContext): void {
  describe("filters", () => {
    const store = () => t.storage.filters;

    it("lists an account's filters oldest first, replaces on put, deletes, survives a reopen", async () => {
      const second = makeFilter({ id: "20" });
      const first = makeFilter({ id: "10", action: "hide", expiresAt: "2025-02-01T00:00:00.000Z" });
      const other = makeFilter({ id: "15", accountId: "2", keywords: [], statuses: [] });
      for (const f of [second, first, other]) await store().put(f);
      assert.deepEqual(ids(await store().listByAccount("1")), ["10", "20"]);
      assert.deepEqual(await store().get("10"), first);
      assert.deepEqual(await store().listByAccount("2"), [other]);
      assert.deepEqual(await store().listByAccount("3"), []);
      const many = await store().listByAccounts(["3", "2", "1", "not-an-id"]);
      assert.deepEqual([...many.keys()].sort(), ["1", "2"]);
      assert.deepEqual(ids(many.get("1") ?? []), ["10", "20"]);
      assert.deepEqual(many.get("2"), [other]);
      assert.deepEqual(await store().listByAccounts([]), new Map());
      assert.equal(await store().get("99"), undefined);
      assert.equal(await store().get("not-an-id"), undefined);

      const changed = {
        ...second,
        title: "Finale",
        keywords: [...second.keywords, { id: "501", keyword: "ending", wholeWord: false }],
        statuses: [],
      };
      await store().put(changed);
      assert.deepEqual(await store().get("20"), changed);

      assert.equal(await store().delete("10"), true);
      assert.equal(await store().delete("10"), false);
      assert.deepEqual(ids(await store().listByAccount("1")), ["20"]);

      await t.reopen();
      assert.deepEqual(await store().listByAccount("1"), [changed]);
      assert.deepEqual(await store().listByAccount("2"), [other]);
    });
  });
}
