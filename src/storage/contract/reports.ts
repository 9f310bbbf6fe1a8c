// Storage contract: reports, filed here or received from other servers.

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
    category: "other",
    ruleIds: [],
    forwarded: false,
    forwardedToDomains: [],
    actionTakenAt: null,
    assignedAccountId: null,
    updatedAt: "2025-01-02T03:04:05.000Z",
    actionTakenById: null,
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

    it("lists the open or the resolved reports alone", async () => {
      const resolved = { actionTakenAt: "2025-02-03T04:05:06.000Z", actionTakenById: "7" };
      await store().put(makeReport({ id: "40", uri: "u40" }));
      await store().put(makeReport({ id: "41", uri: "u41", ...resolved }));
      await store().put(makeReport({ id: "42", uri: "u42" }));
      const open = (resolvedFilter: boolean) =>
        store().list({ limit: 10 }, { resolved: resolvedFilter });
      assert.deepEqual(ids(await open(false)), ["42", "40"]);
      assert.deepEqual(ids(await open(true)), ["41"]);
      assert.deepEqual(ids(await store().list({ limit: 10 })), ["42", "41", "40"]);
      // Reopened: back among the open ones.
      await store().put(makeReport({ id: "41", uri: "u41" }));
      assert.deepEqual(ids(await open(false)), ["42", "41", "40"]);
      assert.deepEqual(ids(await open(true)), []);
      await store().put(makeReport({ id: "40", uri: "u40", ...resolved }));
      await t.reopen();
      assert.deepEqual(ids(await open(true)), ["40"]);
      assert.deepEqual(ids(await store().list({ limit: 1, maxId: "42" }, { resolved: false })), [
        "41",
      ]);
    });

    it("reads a report stored before categories, forwarding, resolution and assignment as an open one", async () => {
      const old = {
        id: "50",
        accountId: "1",
        targetAccountId: "2",
        statusIds: ["5"],
        comment: "old",
        uri: "https://remote.example/flags/50",
        createdAt: "2024-01-02T03:04:05.000Z",
      };
      await store().put(old as Report);
      // Never changed by a moderator: last updated when it was made.
      const whole = makeReport({ ...old, updatedAt: old.createdAt });
      assert.deepEqual(await store().get("50"), whole);
      assert.deepEqual(await store().findByUri(old.uri), whole);
      assert.deepEqual(await store().list({ limit: 10 }, { resolved: false }), [whole]);
      await t.reopen();
      assert.deepEqual(await store().get("50"), whole);
    });
  });
}
