// Import records in the key-value store, one entry per uploaded file (`csv-import`, id): small
// enough (a character per row and the failures) to rewrite as each row is worked through, and
// part of the instance dump with the rest of the store. Rows of one import run one at a time
// (their jobs share an ordering key), and each outcome is written under the import's lock too.

import {
  type CsvImport,
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
