// Starting an import of a Mastodon CSV file (Mastodon's Form::Import and BulkImportWorker): the
// file is read at once (a file of the wrong kind is refused before anything changes), its
// record is stored, and one job takes it from there (import-jobs.ts), so the rows are resolved
// and applied in the background, surviving restarts.

import {
  type CsvImport,
  IMPORT_FILE_BYTES,
  type ImportMode,
  type ImportType,
  ROW_WAITING,
} from "../../domain/csv-import.ts";
import { payloadTooLarge, unprocessable } from "../../domain/errors.ts";
import { ImportFileError, readImportRows } from "../../serialization/csv/import-rows.ts";
import type { ServiceContext } from "../context.ts";
import { IMPORT_PREPARE_JOB } from "./import-jobs.ts";
import { importLockKey, saveImport } from "./import-records.ts";
import { localAccountNamed } from "./local-account.ts";

export async function startImport(
  ctx: ServiceContext,
  username: string,
  type: ImportType,
  mode: ImportMode,
  text: string,
): Promise<CsvImport> {
  const account = await localAccountNamed(ctx, username);
  if (Buffer.byteLength(text, "utf8") > IMPORT_FILE_BYTES) {
    throw payloadTooLarge(`The file is larger than ${IMPORT_FILE_BYTES / 1024} KiB`);
  }
  let rows: ReturnType<typeof readImportRows>;
  try {
    rows = readImportRows(type, text);
  } catch (error) {
    if (error instanceof ImportFileError) throw unprocessable(error.message);
    throw error;
  }
  const record: CsvImport = {
    id: ctx.ids.next(),
    accountId: account.id,
    type,
    mode,
    createdAt: ctx.clock.now().toISOString(),
    finishedAt: null,
    progress: ROW_WAITING.repeat(rows.length),
    failures: [],
  };
  // The record first: should the enqueue fail, the import shows as waiting rather than vanish.
  await saveImport(ctx, record);
  await ctx.jobs.enqueue(
    IMPORT_PREPARE_JOB,
    { importId: record.id, rows: rows as unknown as Record<string, unknown>[] },
    { orderingKey: importLockKey(record.id) },
  );
  return record;
}
