// The in-memory indexes of the status store, over the rows of the status table (ADR 37). Each
// non-deleted status belongs to a set of sorted row lists (its author's statuses, the public
// timeline of its origin, one per hashtag), each deleted one to the list of deleted statuses, and
// each remote one, deleted or not, to the list of remote statuses; replies and reblogs are two
// lists of their own, ordered by parent (or original), then id, so a status with one reply costs
// 4 bytes there and no list of its own. A change of a status (an edit, a deletion, a restore)
// takes its row out of every list it was in, from the columns before the change, and files it
// again from the columns after, so every list and count stays exact without scanning.

import type { IdPage } from "../ports.ts";
import { mix } from "./id-codec.ts";
import { RowHash } from "./row-hash.ts";
import { RowList } from "./row-list.ts";
import type { StatusTable } from "./status-table.ts";

export type Origin = "local" | "remote";

/** Names of the lists; the kind prefix keeps names of different kinds apart. */
export const listKey = {
  /** By the author's index in the table (StatusTable.accountIndex). */
  account: (account: number) => `account:${account}`,
  public: (origin: Origin) => `public:${origin}`,
  tag: (origin: Origin, tag: string) => `tag:${origin}:${tag.toLowerCase()}`,
  /** Deleted statuses, reblogs left out (the purge sweep walks them). */
  deleted: () => "deleted",
  /** Remote statuses, deleted ones and reblogs too (the retention sweep walks them). */
  remote: () => "remote",
};

/** Memberships of the two grouped lists (not names of lists of their own). */
const REPLY = "reply";
const REBLOG = "reblog";

/** The lists the row belongs to; once deleted, only the list of deleted ones. */
function memberships(table: StatusTable, row: number): Set<string> {
  const keys = new Set<string>();
  const local = table.isLocal(row);
  const reblog = table.isReblog(row);
  if (!local) keys.add(listKey.remote());
  if (table.isDeleted(row)) {
    if (!reblog) keys.add(listKey.deleted());
    return keys;
  }
  keys.add(listKey.account(table.accountIndexOf(row)));
  const origin: Origin = local ? "local" : "remote";
  if (!reblog && table.visibilityOf(row) === "public") {
    // Mastodon's public timelines leave out replies to others; hashtag timelines keep them.
    if (!table.isReplyToOthers(row)) keys.add(listKey.public(origin));
    for (const tag of table.tagsOf(row)) keys.add(listKey.tag(origin, tag));
  }
  if (table.isReply(row)) keys.add(REPLY);
  if (reblog) keys.add(REBLOG);
  return keys;
}

/** A run of rows of one list, sorted by id: [lo, hi) of `rows`. */
export interface Run {
  rows: Int32Array;
  lo: number;
  hi: number;
}

export class StatusIndexes {
  readonly #table: StatusTable;
  readonly #lists = new Map<string, RowList>();
  readonly #replies: RowList;
  readonly #reblogs: RowList;
  /** A reblog by (author, original); only statuses not deleted. */
  readonly #reblogBy: RowHash;
  /** ActivityPub id → row, deleted statuses included (they answer with a Tombstone). */
  readonly #byUri: RowHash;
  #localCount = 0;
  /** While true (the start-up load), lists take rows in any order and uris wait (buildUris). */
  #loading = false;
  #urisBuilt: Promise<void> = Promise.resolve();

  constructor(table: StatusTable) {
    this.#table = table;
    this.#replies = new RowList((a, b) => {
      const { replyHi: hi, replyLo: lo } = table.columns;
      return (
        (hi[a] as number) - (hi[b] as number) ||
        (lo[a] as number) - (lo[b] as number) ||
        table.compare(a, b)
      );
    });
    this.#reblogs = new RowList((a, b) => {
      const { reblogHi: hi, reblogLo: lo } = table.columns;
      return (
        (hi[a] as number) - (hi[b] as number) ||
        (lo[a] as number) - (lo[b] as number) ||
        table.compare(a, b)
      );
    });
    this.#reblogBy = new RowHash((row) => this.#reblogHash(row));
    this.#byUri = new RowHash((row) => table.uriHashOf(row));
  }

  /** The sorted runs of the named lists that are not empty. */
  runs(keys: Iterable<string>): Run[] {
    const found: Run[] = [];
    for (const key of keys) {
      const list = this.#lists.get(key);
      if (list) found.push({ rows: list.view(), lo: 0, hi: list.size });
    }
    return found;
  }

  count(key: string): number {
    return this.#lists.get(key)?.size ?? 0;
  }

  /** The replies to the status, oldest first. */
  replies(statusId: string): Run {
    return this.#group(this.#replies, "replyHi", "replyLo", this.#table.groupKey(statusId));
  }

  /** The reblogs of the status, oldest first. */
  reblogs(statusId: string): Run {
    return this.#group(this.#reblogs, "reblogHi", "reblogLo", this.#table.groupKey(statusId));
  }

  /** How many replies and reblogs the status has (its id read once for both). */
  interactions(statusId: string): { replies: number; reblogs: number } {
    const key = this.#table.groupKey(statusId);
    const size = ({ lo, hi }: Run) => hi - lo;
    return {
      replies: size(this.#group(this.#replies, "replyHi", "replyLo", key)),
      reblogs: size(this.#group(this.#reblogs, "reblogHi", "reblogLo", key)),
    };
  }

  get localCount(): number {
    return this.#localCount;
  }

  async findByUri(uri: string): Promise<number> {
    await this.#urisBuilt;
    const key = this.#table.uriHash(uri);
    return key === undefined ? -1 : this.#byUri.find(key.hash, key.holds);
  }

  /**
   * Call before the start-up load: rows come in any order (lists are sorted once, on their
   * first read), and the uri index waits for buildUris (a million insertions cost seconds of
   * start-up, and only federation looks statuses up by uri).
   */
  beginLoad(): void {
    this.#loading = true;
  }

  /**
   * Call after the load: fills the uri index in slices between other work. Changes from then on
   * update it directly; a slice that runs after a change sets the row's current uri again.
   */
  endLoad(): void {
    this.#loading = false;
    const table = this.#table;
    this.#urisBuilt = (async () => {
      let done = 0;
      for (const row of table.rows()) {
        this.#fileUri(row);
        if (++done % 20_000 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    })();
  }

  /** The reblog's row, or -1. */
  findReblog(accountId: string, statusId: string): number {
    const table = this.#table;
    const account = table.accountIndex(accountId);
    const original = table.groupKey(statusId);
    if (account < 0 || original === undefined) return -1;
    const c = table.columns;
    return this.#reblogBy.find(
      mix(account, mix(original.hi, original.lo)),
      (row) =>
        c.account[row] === account &&
        c.reblogHi[row] === original.hi &&
        c.reblogLo[row] === original.lo,
    );
  }

  /** Called before the row changes or goes: unfiles it while its columns still say where. */
  leave(row: number): void {
    const table = this.#table;
    for (const key of memberships(table, row)) this.#unfile(key, row);
    this.#byUri.delete(row, table.uriHashOf(row));
    if (!table.isDeleted(row)) {
      if (table.isLocal(row)) this.#localCount--;
      if (table.isReblog(row)) this.#reblogBy.delete(row, this.#reblogHash(row));
    }
  }

  /** Called once the row holds the status (new or changed). */
  enter(row: number): void {
    const table = this.#table;
    for (const key of memberships(table, row)) this.#file(key, row);
    if (!this.#loading) this.#fileUri(row);
    if (!table.isDeleted(row)) {
      if (table.isLocal(row)) this.#localCount++;
      if (table.isReblog(row)) this.#fileReblog(row);
    }
  }

  #file(key: string, row: number): void {
    const loading = this.#loading;
    if (key === REPLY) {
      this.#replies.add(row, loading);
      return;
    }
    if (key === REBLOG) {
      this.#reblogs.add(row, loading);
      return;
    }
    let list = this.#lists.get(key);
    if (!list) {
      const table = this.#table;
      list = new RowList((a, b) => table.compare(a, b));
      this.#lists.set(key, list);
    }
    list.add(row, loading);
  }

  #unfile(key: string, row: number): void {
    if (key === REPLY) {
      this.#replies.delete(row);
      return;
    }
    if (key === REBLOG) {
      this.#reblogs.delete(row);
      return;
    }
    const list = this.#lists.get(key);
    if (!list) return;
    list.delete(row);
    if (list.size === 0) this.#lists.delete(key);
  }

  #fileUri(row: number): void {
    const table = this.#table;
    // Same-uri rows: the last written wins, as the map did.
    this.#byUri.set(row, table.uriHashOf(row), (other) => table.sameUri(other, row));
  }

  #fileReblog(row: number): void {
    const c = this.#table.columns;
    const account = c.account[row];
    const hi = c.reblogHi[row];
    const lo = c.reblogLo[row];
    this.#reblogBy.set(
      row,
      this.#reblogHash(row),
      (other) =>
        c.account[other] === account && c.reblogHi[other] === hi && c.reblogLo[other] === lo,
    );
  }

  #reblogHash(row: number): number {
    const c = this.#table.columns;
    return mix(c.account[row] as number, mix(c.reblogHi[row] as number, c.reblogLo[row] as number));
  }

  #group(
    list: RowList,
    hiKey: "replyHi" | "reblogHi",
    loKey: "replyLo" | "reblogLo",
    key: { hi: number; lo: number } | undefined,
  ): Run {
    const rows = list.view();
    if (key === undefined) return { rows, lo: 0, hi: 0 };
    const c = this.#table.columns;
    const below = (inclusive: boolean) => (row: number) => {
      const hi = c[hiKey][row] as number;
      if (hi !== key.hi) return hi < key.hi;
      const lo = c[loKey][row] as number;
      return inclusive ? lo <= key.lo : lo < key.lo;
    };
    return { rows, lo: list.partition(below(false)), hi: list.partition(below(true)) };
  }
}

/** The window of one run for the page's bounds (as SortedIds.page bounds it). */
export function bound(table: StatusTable, run: Run, page: IdPage): Run {
  const { rows } = run;
  const partition = (before: (row: number) => boolean, lo: number, hi: number) => {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(rows[mid] as number)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let { lo, hi } = run;
  if (page.maxId !== undefined) {
    const key = table.key(page.maxId);
    hi = partition((row) => table.compareToId(row, key) < 0, lo, hi);
  }
  for (const id of [page.sinceId, page.minId]) {
    if (id === undefined) continue;
    const key = table.key(id);
    lo = Math.max(
      lo,
      partition((row) => table.compareToId(row, key) <= 0, lo, hi),
    );
  }
  return { rows, lo, hi };
}
