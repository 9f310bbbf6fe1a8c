// Storage contract: the version, which changes with every change an API answer could show (the
// HTTP layer serves kept public answers only while it is unchanged), and not with reads or jobs.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Storage } from "../ports.ts";
import { VERSION_KINDS, type VersionKind } from "../version-kinds.ts";
import type { ContractContext } from "./context.ts";
import {
  makeAccount,
  makeApp,
  makeBlock,
  makeFavourite,
  makeFollow,
  makeStatus,
  makeToken,
} from "./fixtures.ts";
import { makeJob, makeMarker, makeNotification } from "./fixtures-features.ts";
import { makeMedia } from "./media.ts";

/** Every kind's version and the whole one, now. */
function versions(storage: Storage): Map<VersionKind | "all", number> {
  const out = new Map<VersionKind | "all", number>(
    VERSION_KINDS.map((kind): [VersionKind, number] => [kind, storage.versionOf([kind])]),
  );
  out.set("all", storage.version());
  return out;
}

/** Which versions moved between two readings. */
function moved(
  before: Map<VersionKind | "all", number>,
  after: Map<VersionKind | "all", number>,
): string[] {
  return [...after].filter(([kind, n]) => before.get(kind) !== n).map(([kind]) => kind);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

    it("moves each kind's version with the writes of that kind only (ADR 0072)", async () => {
      const { storage } = t;
      await storage.accounts.put(makeAccount({ id: "1" }));
      await storage.accounts.put(makeAccount({ id: "2", username: "two" }));
      await storage.apps.put(makeApp({ id: "1" }));
      await storage.statuses.put(makeStatus({ id: "10", accountId: "2" }));
      const writes: [VersionKind, () => Promise<unknown>][] = [
        ["statuses", () => storage.statuses.put(makeStatus({ id: "11", accountId: "2" }))],
        ["accounts", () => storage.accounts.put(makeAccount({ id: "2", username: "renamed" }))],
        ["media", () => storage.media.put(makeMedia({ id: "30" }))],
        [
          "acts",
          () => storage.favourites.put(makeFavourite({ id: "40", accountId: "1", targetId: "10" })),
        ],
        ["acts", () => storage.favourites.delete("1", "10")],
        [
          "relations",
          () => storage.follows.put(makeFollow({ id: "41", accountId: "1", targetId: "2" })),
        ],
        [
          "relations",
          () => storage.blocks.put(makeBlock({ id: "42", accountId: "2", targetId: "1" })),
        ],
        [
          "kv",
          () => storage.kv.set({ key: ["wren", "previewCard", "u"], value: 1, expiresAt: null }),
        ],
        ["tokens", () => storage.tokens.put(makeToken({ id: "50" }))],
        ["other", () => storage.markers.put(makeMarker({ accountId: "1", timeline: "home" }))],
        [
          "other",
          () =>
            storage.notifications.put(
              makeNotification({ id: "60", accountId: "1", fromAccountId: "2", statusId: "10" }),
            ),
        ],
      ];
      for (const [kind, write] of writes) {
        const before = versions(storage);
        await write();
        // The counts some writes also move are of the same kind (a follow's counts: relations).
        assert.deepEqual(moved(before, versions(storage)).sort(), ["all", kind].sort(), kind);
      }
    });

    it("moves a kind's version for another process's write of that kind only", async () => {
      const { storage } = t;
      const peer = await t.peer();
      await peer.accounts.put(makeAccount({ id: "1" }));
      await peer.statuses.put(makeStatus({ id: "10", accountId: "1" }));
      /** Until no signal has moved the version for 100 ms: every notification sent has landed. */
      const settled = async () => {
        for (let last = storage.version(); ; last = storage.version()) {
          await sleep(100);
          if (storage.version() === last) return;
        }
      };
      /** The kinds moved once `storage` has heard of the peer's write (at once on one process). */
      const heard = async (write: () => Promise<unknown>) => {
        await settled();
        const before = versions(storage);
        await write();
        while (storage.version() === before.get("all")) await sleep(1);
        // Signals of one write may come in several notifications: let them all land.
        await settled();
        return moved(before, versions(storage)).filter((k) => k !== "all");
      };
      assert.deepEqual(
        await heard(() => peer.markers.put(makeMarker({ accountId: "1", timeline: "home" }))),
        ["other"],
      );
      assert.deepEqual(
        await heard(() =>
          peer.favourites.put(makeFavourite({ id: "20", accountId: "1", targetId: "10" })),
        ),
        ["acts"],
      );
      assert.deepEqual(
        await heard(() => peer.statuses.put(makeStatus({ id: "11", accountId: "1" }))),
        ["statuses"],
      );
    });
  });
}
