// Import records in the key-value store, one entry per uploaded file (`csv-import`, id): small
// enough (a character per row and the failures) to rewrite as each row is worked through, and
// part of the instance dump with the rest of the store. Rows of one import run one at a time
// (their jobs share an ordering key), and each outcome is written under the import's lock too.

import {
  type CsvImport,
  IMPORT_RECORD_TTL_MS,
  type ImportFailure,
  ROW_DONE,
  ROW_FAILED,
  ROW_WAITING,
} from "../../domain/csv-import.ts";
import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

const key = (id: string) => ["csv-import", id];

export function importLockKey(id: string): string {
  return `csv-import:${id}`;
}

export async function findImport(ctx: ServiceContext, id: string): Promise<CsvImport | undefined> {
  return (await ctx.storage.kv.get(key(id)))?.value as CsvImport | undefined;
}

export async function requireImport(ctx: ServiceContext, id: string): Promise<CsvImport> {
  const record = await findImport(ctx, id);
  if (!record) throw notFound(`No import ${id}`);
  return record;
}

/** The account's imports, newest first. */
export async function importsOf(ctx: ServiceContext, accountId: string): Promise<CsvImport[]> {
  const records = (await ctx.storage.kv.list(["csv-import"])).map((e) => e.value as CsvImport);
  return records
    .filter((r) => r.accountId === accountId)
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
}

/**
 * Removes the records of imports finished more than IMPORT_RECORD_TTL_MS ago (Mastodon's
 * imports vacuum); the daily kv.prune job calls it. Returns how many went.
 */
export async function pruneFinishedImports(ctx: ServiceContext): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - IMPORT_RECORD_TTL_MS).toISOString();
  let removed = 0;
  for (const entry of await ctx.storage.kv.list(["csv-import"])) {
    const record = entry.value as Partial<CsvImport> | null;
    if (typeof record?.finishedAt !== "string" || record.finishedAt >= cutoff) continue;
    if (await ctx.storage.kv.delete(entry.key)) removed++;
  }
  return removed;
}

export function saveImport(ctx: ServiceContext, record: CsvImport): Promise<void> {
  return ctx.storage.kv.set({ key: key(record.id), value: record, expiresAt: null });
}

/** Notes row `index` as done, or failed with `failure`; a row already worked through stays. */
export async function recordRowOutcome(
  ctx: ServiceContext,
  id: string,
  index: number,
  failure?: ImportFailure,
): Promise<void> {
  await ctx.storage.coordination.withLock(importLockKey(id), async () => {
    const record = await findImport(ctx, id);
    if (!record || record.progress[index] !== ROW_WAITING) return;
    const progress = `${record.progress.slice(0, index)}${failure ? ROW_FAILED : ROW_DONE}${record.progress.slice(index + 1)}`;
    await saveImport(ctx, {
      ...record,
      progress,
      failures: failure ? [...record.failures, failure] : record.failures,
      finishedAt: progress.includes(ROW_WAITING) ? null : ctx.clock.now().toISOString(),
    });
  });
}
