// A viewer's boosts of statuses (StatusStore.findReblogs, asked by every signed-in page of
// statuses: "reblogged") kept in this process by "account original", as json-file answers them
// from memory. What is kept is the boost's id, or that there is none; the boost itself comes from
// the statuses' row memo. Forgotten pair by pair when a write to statuses touches a boost of it
// (the "reblogs" change signal, migration 0038): this process's as it resolves, another's when
// notified; emptied by a write that names none. The bound of the status memo (ADR 0033, 0041).
//
// Not kept: findReblog (one pair), read under a lock before a boost is made or undone.

import type { Changes } from "./changes.ts";
import { createRowMemo } from "./row-memo.ts";

/** Pairs kept at most (a page asks one per status). */
const CAPACITY = 50_000;

/** What the signal names a boost by: "account original" (canonical ids, rows.ts). */
const pairName = (accountId: string, originalId: string) => `${accountId} ${originalId}`;

export interface ReblogMemo {
  /**
   * The ids of `accountId`'s live boosts of `originalIds` (row ids), by original; `load` is
   * asked only for the originals not kept.
   */
  find(
    accountId: string,
    originalIds: readonly string[],
    load: (missing: string[]) => Promise<Map<string, string>>,
  ): Promise<Map<string, string>>;
  /** This process's write of a boost of `originalId` by `accountId`: forgotten at once. */
  written(accountId: string, originalId: string): void;
}

export function createReblogMemo(changes: Changes): ReblogMemo {
  const memo = createRowMemo<{ id: string }>(changes, "reblogs", { capacity: CAPACITY });
  return {
    async find(accountId, originalIds, load) {
      const names = originalIds.map((original) => pairName(accountId, original));
      const originalOf = new Map(names.map((name, i) => [name, originalIds[i] as string]));
      const found = await memo.getMany(names, async (missing) => {
        const loaded = await load(missing.map((name) => originalOf.get(name) as string));
        return new Map(
          [...loaded].map(([original, id]) => [pairName(accountId, original), { id }]),
        );
      });
      return new Map([...found].map(([name, boost]) => [originalOf.get(name) as string, boost.id]));
    },
    written(accountId, originalId) {
      // Counted in the version by the statuses write that made it.
      changes.rows("reblogs", [pairName(accountId, originalId)], true);
    },
  };
}
