// One kind of edge (follows, blocks, favourites…): `<folder>/<edge_id>.json`, one file each.
// In memory: the edge id of each (account, target) pair (pair-index.ts), and per account and per
// target the sorted edge ids, which serve the newest-first lists and the counts.
//
// Changes of one pair run one at a time, so a replacement with a new id (write the new file,
// then remove the old one) never interleaves with another change of the pair. A crash between
// those two steps leaves both files; opening keeps the one with the larger id and removes the
// other.

import { compareIds } from "../../domain/ids.ts";
import type { Edge } from "../../domain/relations.ts";
import type { EdgeStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { KeyedQueue } from "./keyed-queue.ts";
import { PairIndex } from "./pair-index.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedGroups } from "./sorted-ids.ts";

const pairKey = (accountId: string, targetId: string) => `${accountId} ${targetId}`;

export async function openEdgeStore<E extends Edge>(
  root: string,
  writer: DurableWriter,
  folder: string,
): Promise<EdgeStore<E>> {
  const byPair = new PairIndex();
  const from = new SortedGroups();
  const to = new SortedGroups();
  const queue = new KeyedQueue();

  const index = (edge: E): string | undefined => {
    const shadowed = byPair.get(edge.accountId, edge.targetId);
    if (shadowed !== undefined && shadowed !== edge.id) {
      // The pair's older edge stays in the collection until its removal is durable, but lists
      // and lookups show only the newer one from now on.
      from.delete(edge.accountId, shadowed);
      to.delete(edge.targetId, shadowed);
    }
    byPair.set(edge.accountId, edge.targetId, edge.id);
    from.add(edge.accountId, edge.id);
    to.add(edge.targetId, edge.id);
    return shadowed === edge.id ? undefined : shadowed;
  };
  const unindex = (edge: E) => {
    byPair.delete(edge.accountId, edge.targetId, edge.id);
    from.delete(edge.accountId, edge.id);
    to.delete(edge.targetId, edge.id);
  };

  // While loading, files arrive in directory order; indexing waits until all are in, so
  // duplicate pairs can be settled by id rather than by the order of the files.
  let loading = true;
  const records = await RecordCollection.load<E>(
    root,
    {
      folder,
      depth: 0,
      keyOf: (e) => e.id,
      fileOf: (e) => `${e.id}.json`,
      onChange(previous, next) {
        if (loading) return;
        if (previous) unindex(previous);
        if (next) index(next);
      },
    },
    writer,
  );
  loading = false;
  const losers: string[] = [];
  const byId = [...records.values()].sort((a, b) => compareIds(a.id, b.id));
  for (const edge of byId) {
    const shadowed = index(edge);
    if (shadowed !== undefined) losers.push(shadowed);
  }
  for (const id of losers) await records.remove(id);

  const getByPair = (accountId: string, targetId: string) => {
    const id = byPair.get(accountId, targetId);
    return id === undefined ? undefined : records.get(id);
  };
  const load = (ids: readonly string[]) => ids.flatMap((id) => records.get(id) ?? []);

  return {
    async get(accountId, targetId) {
      return getByPair(accountId, targetId);
    },
    put(edge) {
      return queue.run(pairKey(edge.accountId, edge.targetId), async () => {
        const previous = byPair.get(edge.accountId, edge.targetId);
        await records.put(edge);
        if (previous !== undefined && previous !== edge.id) await records.remove(previous);
      });
    },
    delete(accountId, targetId) {
      return queue.run(pairKey(accountId, targetId), async () => {
        const id = byPair.get(accountId, targetId);
        return id === undefined ? false : records.remove(id);
      });
    },
    async listFrom(accountId, page) {
      return load(from.get(accountId)?.page(page) ?? []);
    },
    async listTo(targetId, page) {
      return load(to.get(targetId)?.page(page) ?? []);
    },
    async countFrom(accountId) {
      return from.size(accountId);
    },
    async countTo(targetId) {
      return to.size(targetId);
    },
    async countFromMany(accountIds) {
      return new Map(accountIds.map((id) => [id, from.size(id)]));
    },
    async countToMany(targetIds) {
      return new Map(targetIds.map((id) => [id, to.size(id)]));
    },
    async findFrom(accountId, targetIds) {
      const found = new Map<string, E>();
      const targets = byPair.targetsOf(accountId);
      if (targets === undefined) return found;
      for (const targetId of targetIds) {
        const id = targets.get(targetId);
        const edge = id === undefined ? undefined : records.get(id);
        if (edge) found.set(targetId, edge);
      }
      return found;
    },
    async findTo(targetId, accountIds) {
      const found = new Map<string, E>();
      // Nobody blocks, follows… the target: no lookup per account asked about.
      if (to.size(targetId) === 0) return found;
      for (const accountId of accountIds) {
        const edge = getByPair(accountId, targetId);
        if (edge) found.set(accountId, edge);
      }
      return found;
    },
    async allTargetsFrom(accountId) {
      const ids = from.get(accountId)?.ascending().reverse() ?? [];
      return ids.map((id) => (records.peek(id) as E).targetId);
    },
  };
}
