// Storage contract: statuses waiting to be published at a time.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import { type ContractContext, ids } from "./context.ts";

function makeScheduled(fields: Partial<ScheduledStatus> & { id: string }): ScheduledStatus {
  return {
    accountId: "1",
    scheduledAt: "2030-01-02T03:04:05.000Z",
    params: {
      text: "later",
      spoilerText: null,
      sensitive: null,
      visibility: null,
      language: null,
      inReplyToId: null,
      mediaIds: null,
      poll: null,
      applicationId: null,
      idempotency: null,
    },
    jobId: "j1",
    createdAt: "2030-01-01T00:00:00.000Z",
    ...fields,
  };
}

export function scheduledStatusContract(t: ContractContext): void {
  describe("scheduled statuses", () => {
    const store = () => t.storage.scheduledStatuses;

    it("round-trips, replaces and deletes a scheduled status", async () => {
      const scheduled = makeScheduled({
        id: "10",
        params: {
          ...makeScheduled({ id: "0" }).params,
          mediaIds: ["7"],
          poll: { options: ["a", "b"], expiresIn: 600, multiple: true, hideTotals: false },
          visibility: "unlisted",
        },
      });
      await store().put(scheduled);
      assert.deepEqual(await store().get("10"), scheduled);
      const moved = { ...scheduled, scheduledAt: "2030-02-01T00:00:00.000Z" };
      await store().put(moved);
      assert.deepEqual(await store().get("10"), moved);
      assert.equal(await store().countByAccount("1"), 1);
      assert.equal(await store().delete("10"), true);
      assert.equal(await store().delete("10"), false);
      assert.equal(await store().get("10"), undefined);
      assert.equal(await store().get("not-an-id"), undefined);
      assert.equal(await store().countByAccount("1"), 0);
    });

    it("lists an account's newest first, paged by id, and counts them by day", async () => {
      const times: Record<string, string> = {
        "20": "2030-01-02T00:00:00.000Z",
        "9": "2030-01-02T23:59:59.999Z",
        "100": "2030-01-03T00:00:00.000Z",
        "30": "2030-01-01T23:59:59.999Z",
      };
      await Promise.all(
        Object.entries(times).map(([id, scheduledAt]) =>
          store().put(makeScheduled({ id, scheduledAt })),
        ),
      );
      await store().put(makeScheduled({ id: "50", accountId: "2" }));
      assert.deepEqual(ids(await store().listByAccount("1", { limit: 10 })), [
        "100",
        "30",
        "20",
        "9",
      ]);
      assert.deepEqual(ids(await store().listByAccount("1", { limit: 2, maxId: "100" })), [
        "30",
        "20",
      ]);
      assert.deepEqual(ids(await store().listByAccount("1", { limit: 2, minId: "9" })), [
        "30",
        "20",
      ]);
      assert.deepEqual(ids(await store().listByAccount("2", { limit: 10 })), ["50"]);
      assert.deepEqual(await store().listByAccount("3", { limit: 10 }), []);
      const day = { from: "2030-01-02T00:00:00.000Z", to: "2030-01-03T00:00:00.000Z" };
      assert.equal(await store().countByAccount("1", day), 2);
      assert.equal(await store().countByAccount("1"), 4);
      assert.equal(await store().countByAccount("2", day), 1);

      await t.reopen();
      assert.deepEqual(ids(await store().listByAccount("1", { limit: 10 })), [
        "100",
        "30",
        "20",
        "9",
      ]);
      assert.equal(await store().countByAccount("1", day), 2);
    });
  });
}
