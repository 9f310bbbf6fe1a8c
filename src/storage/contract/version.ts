// Storage contract: the version, which changes with every change an API answer could show (the
// HTTP layer serves kept public answers only while it is unchanged), and not with reads or jobs.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ContractContext } from "./context.ts";
import { makeAccount, makeFavourite, makeStatus } from "./fixtures.ts";
import { makeJob } from "./fixtures-features.ts";

export function versionContract(t: ContractContext): void {
  describe("version", () => {
    it("changes with every write and removal, not with reads or the job queue", async () => {
      const { storage } = t;
      const seen = new Set<number>([storage.version()]);
      const changed = () => {
        const now = storage.version();
        assert.ok(!seen.has(now), `version ${now} seen before`);
        seen.add(now);
      };
      await storage.accounts.put(makeAccount({ id: "1" }));
      changed();
      const status = makeStatus({ id: "10", accountId: "1" });
      await storage.statuses.put(status);
      changed();
      await storage.statuses.put({ ...status, text: "edited" });
      changed();
      await storage.favourites.put(makeFavourite({ id: "20", accountId: "1", targetId: "10" }));
      changed();
      await storage.favourites.delete("1", "10");
      changed();

      const before = storage.version();
      await storage.jobs.put(makeJob({ id: "30" }));
      await storage.jobs.delete("30");
      await storage.statuses.get("10");
      await storage.accounts.get("1");
      await storage.favourites.countTo("10");
      await storage.statuses.interactionCounts(["10"]);
      assert.equal(storage.version(), before);
    });
  });
}
