// Storage contract: remembered Idempotency-Keys.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ContractContext } from "./context.ts";
import { makeIdempotency } from "./fixtures.ts";

export function idempotencyContract(t: ContractContext): void {
  describe("idempotency keys", () => {
    it("round-trips, replaces, and answers undefined for unknown keys", async () => {
      const record = makeIdempotency({ keyHash: "ab12", statusId: "10" });
      await t.storage.idempotency.put(record);
      assert.deepEqual(await t.storage.idempotency.get("ab12"), record);
      assert.equal(await t.storage.idempotency.get("cd34"), undefined);
      await t.storage.idempotency.put({ ...record, statusId: "11" });
      assert.equal((await t.storage.idempotency.get("ab12"))?.statusId, "11");
    });

    it("creates a record only if its key is absent, answering the record that holds", async () => {
      const first = makeIdempotency({ keyHash: "ef56", statusId: "20" });
      assert.deepEqual(await t.storage.idempotency.putIfAbsent(first), first);
      const second = makeIdempotency({ keyHash: "ef56", statusId: "21" });
      assert.deepEqual(await t.storage.idempotency.putIfAbsent(second), first);
      assert.deepEqual(await t.storage.idempotency.get("ef56"), first);
    });

    it("lets exactly one of racing creates win, across processes", async () => {
      const peer = await t.peer();
      const stores = [t.storage.idempotency, peer.idempotency];
      const held = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          stores[i % 2]?.putIfAbsent(makeIdempotency({ keyHash: "race", statusId: `${30 + i}` })),
        ),
      );
      const winner = await t.storage.idempotency.get("race");
      assert.ok(winner);
      for (const record of held) assert.deepEqual(record, winner);
      assert.deepEqual(await peer.idempotency.get("race"), winner);
    });

    it("prunes records made strictly before the cutoff, returning how many", async () => {
      const at = (keyHash: string, createdAt: string) =>
        t.storage.idempotency.put(makeIdempotency({ keyHash, createdAt }));
      await at("a1", "2025-01-01T09:00:00.000Z");
      await at("a2", "2025-01-01T09:59:59.999Z");
      await at("a3", "2025-01-01T10:00:00.000Z");
      await at("a4", "2025-01-01T11:00:00.000Z");
      assert.equal(await t.storage.idempotency.prune("2025-01-01T10:00:00.000Z"), 2);
      assert.equal(await t.storage.idempotency.get("a1"), undefined);
      assert.equal(await t.storage.idempotency.get("a2"), undefined);
      assert.equal((await t.storage.idempotency.get("a3"))?.keyHash, "a3");
      assert.equal((await t.storage.idempotency.get("a4"))?.keyHash, "a4");
      assert.equal(await t.storage.idempotency.prune("2025-01-01T10:00:00.000Z"), 0);
    });
  });
}
