// The jobs of an import (Mastodon's BulkImportWorker and Import::RowWorker). The first, with the
// file's rows, applies overwrite mode, creates the lists the file names and queues one job per
// row; each row job resolves the account (WebFinger) or status the row names and applies it
// through the usual service (follow, block, mute, list, domain block, bookmark), so federation
// and events happen as usual. The jobs of one import share an ordering key: they run one at a
// time, in file order, which keeps the record's writes simple and other servers unhurried.
// A row that cannot be applied (unknown account, refused action) is recorded as failed with the
// reason; troubles of our own storage are retried, and a row still failing at the last attempt
// is recorded as failed too, so no import waits forever.

import { type CsvImport, type ImportRow, ROW_WAITING, rowValue } from "../../domain/csv-import.ts";
import { AppError } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { blockAccount } from "../graph/block.ts";
import { blockDomain } from "../graph/domain-block.ts";
import { followAccount } from "../graph/follow.ts";
import { muteAccount } from "../graph/mute.ts";
import { bookmarkStatus } from "../interactions/bookmark.ts";
import { addListMembers } from "../lists/add-members.ts";
import { createList } from "../lists/create-list.ts";
import { ownLists } from "../lists/own-list.ts";
import { findImport, importLockKey, recordRowOutcome, saveImport } from "./import-records.ts";
import { overwrite } from "./overwrite.ts";

export const IMPORT_PREPARE_JOB = "import.prepare";
export const IMPORT_ROW_JOB = "import.row";
export const IMPORT_ROW_MAX_ATTEMPTS = 5;

/** A row that cannot be applied; its message is the reason listed. */
class RowFailure extends Error {}

export async function prepareImport(
  ctx: ServiceContext,
  importId: string,
  rows: readonly ImportRow[],
): Promise<void> {
  const record = await findImport(ctx, importId);
  // Rows already worked through: this job ran before and was interrupted after queueing them.
  if (!record || record.finishedAt !== null) return;
  if ([...record.progress].some((c) => c !== ROW_WAITING)) return;
  if (record.mode === "overwrite") await overwrite(ctx, record, rows);
  if (record.type === "lists") await createMissingLists(ctx, record.accountId, rows);
  if (rows.length === 0) {
    await saveImport(ctx, { ...record, finishedAt: ctx.clock.now().toISOString() });
    return;
  }
  for (const [index, row] of rows.entries()) {
    await ctx.jobs.enqueue(
      IMPORT_ROW_JOB,
      { importId, index, row: row as Record<string, unknown> },
      { orderingKey: importLockKey(importId) },
    );
  }
}

async function createMissingLists(
  ctx: ServiceContext,
  ownerId: string,
  rows: readonly ImportRow[],
): Promise<void> {
  const existing = new Set((await ownLists(ctx, ownerId)).map((list) => list.title));
  for (const row of rows) {
    if (row.listName === undefined || existing.has(row.listName)) continue;
    existing.add(row.listName);
    // Too many lists, or a title too long: the rows of that list fail with the reason.
    await createList(ctx, ownerId, {
      title: row.listName,
      repliesPolicy: "list",
      exclusive: false,
    }).catch((error) => {
      if (!(error instanceof AppError)) throw error;
    });
  }
}

/** Runs row `index`; `lastAttempt` records a storage trouble as the row's failure. */
export async function importRow(
  ctx: ServiceContext,
  importId: string,
  index: number,
  row: ImportRow,
  lastAttempt: boolean,
): Promise<void> {
  const record = await findImport(ctx, importId);
  if (!record || record.progress[index] !== ROW_WAITING) return;
  const fail = (reason: string) =>
    recordRowOutcome(ctx, importId, index, { row: index + 1, value: rowValue(row), reason });
  try {
    await applyRow(ctx, record, row);
  } catch (error) {
    if (error instanceof RowFailure || error instanceof AppError) return fail(error.message);
    if (lastAttempt) await fail(`Gave up: ${(error as Error).message}`);
    throw error;
  }
  await recordRowOutcome(ctx, importId, index);
}

async function resolveAccountRow(ctx: ServiceContext, row: ImportRow) {
  if (row.acct === undefined) throw new RowFailure("No account address");
  // A bare username is one of ours (a file from this server's own export may have it).
  const handle = row.acct.includes("@") ? row.acct : `${row.acct}@${ctx.settings.domain}`;
  const account = await ctx.remote.resolveAccount(handle).catch(() => undefined);
  if (!account) throw new RowFailure(`Cannot find the account ${row.acct}`);
  return account;
}

async function applyRow(ctx: ServiceContext, record: CsvImport, row: ImportRow): Promise<void> {
  const owner = record.accountId;
  switch (record.type) {
    case "following": {
      const target = await resolveAccountRow(ctx, row);
      await followAccount(ctx, owner, target.id, {
        reblogs: row.showReblogs,
        notify: row.notify,
        languages: row.languages,
      });
      return;
    }
    case "blocks":
      return blockAccount(ctx, owner, (await resolveAccountRow(ctx, row)).id);
    case "mutes": {
      const target = await resolveAccountRow(ctx, row);
      return muteAccount(ctx, owner, target.id, { notifications: row.hideNotifications });
    }
    case "domain-blocks":
      if (row.domain === undefined) throw new RowFailure("No domain");
      return blockDomain(ctx, owner, row.domain);
    case "bookmarks": {
      if (row.uri === undefined) throw new RowFailure("No status URL");
      const status = await ctx.remote.resolveStatus(row.uri).catch(() => undefined);
      if (!status) throw new RowFailure(`Cannot find the status ${row.uri}`);
      await bookmarkStatus(ctx, owner, status.id);
      return;
    }
    case "lists":
      return addToList(ctx, owner, row);
  }
}

/** As Mastodon: the owner follows the account (unless it is themself), then lists it. */
async function addToList(ctx: ServiceContext, owner: string, row: ImportRow): Promise<void> {
  const list = (await ownLists(ctx, owner)).find((l) => l.title === row.listName);
  if (!list) throw new RowFailure(`No list named ${row.listName ?? ""}`);
  const target = await resolveAccountRow(ctx, row);
  if (target.id !== owner) await followAccount(ctx, owner, target.id);
  const present = await ctx.storage.listMembers.findFrom(list.id, [target.id]);
  if (!present.has(target.id)) await addListMembers(ctx, owner, list.id, [target.id]);
}
