// Storage contract: reports received from other servers.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Report } from "../../domain/report.ts";
import { type ContractContext, ids } from "./context.ts";

function makeReport(fields: Partial<Report> & { id: string }): Report {
  return {
    accountId: "1",
    targetAccountId: "2",
    statusIds: [],
    comment: "",
    uri: null,
    createdAt: "2025-01-02T03:04:05.000Z",
    ...fields,
  };
}

export function reportContract(t: ContractContext): void {
  describe("reports", () => {
    const store = () => t.storage.reports;

    it("round-trips reports and finds them by their activity id", async () => {
      const report = makeReport({
        id: "10",
        statusIds: ["5", "6"],
        comment: "spam",
        uri: "https://remote.example/flags/1",
      });
      await store().put(report);
      assert.deepEqual(await store().get("10"), report);
      assert.deepEqual(await store().findByUri("https://remote.example/flags/1"), report);
      assert.equal(await store().findByUri("https://remote.example/flags/2"), undefined);
      assert.equal(await store().get("11"), undefined);
    });

    it("lists reports newest first, paged by id, and keeps them after a reopen", async () => {
      await Promise.all(
        ["20", "9", "100", "30"].map((id) => store().put(makeReport({ id, uri: `u${id}` }))),
      );
      assert.deepEqual(ids(await store().list({ limit: 10 })), ["100", "30", "20", "9"]);
      assert.deepEqual(ids(await store().list({ limit: 2, maxId: "100" })), ["30", "20"]);
      await t.reopen();
      assert.deepEqual(ids(await store().list({ limit: 10 })), ["100", "30", "20", "9"]);
      assert.equal((await store().findByUri("u30"))?.id, "30");
    });
  });
}
