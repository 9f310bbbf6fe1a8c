// Storage contract: read markers, one per account and timeline.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ContractContext } from "./context.ts";
import { makeMarker } from "./fixtures-features.ts";

export function markerContract(t: ContractContext): void {
  describe("markers", () => {
    const store = () => t.storage.markers;

    it("keeps one marker per account and timeline, replaced on put", async () => {
      const home = makeMarker({ accountId: "1", timeline: "home", lastReadId: "50" });
      const notifications = makeMarker({ accountId: "1", timeline: "notifications" });
      const other = makeMarker({ accountId: "2", timeline: "home", lastReadId: "70" });
      await Promise.all([home, notifications, other].map((m) => store().put(m)));
      assert.deepEqual(await store().get("1", "home"), home);
      assert.deepEqual(await store().get("1", "notifications"), notifications);
      assert.deepEqual(await store().get("2", "home"), other);
      assert.equal(await store().get("2", "notifications"), undefined);
      assert.equal(await store().get("3", "home"), undefined);

      const moved = {
        ...home,
        lastReadId: "60",
        version: 2,
        updatedAt: "2025-02-01T00:00:00.000Z",
      };
      await store().put(moved);
      assert.deepEqual(await store().get("1", "home"), moved);
      assert.deepEqual(await store().get("1", "notifications"), notifications);
    });
  });
}
