// Asking for an archive: a record that waits, and a job of the durable queue that builds it
// (build-archive.ts). As on Mastodon, a person may ask once in six days (the operator, by
// `wren archive`, any time), and never while one is still being made.

import { tooManyRequests, unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { type AccountArchive, archivesOf, saveArchive } from "./archive-records.ts";

export const ARCHIVE_BUILD_JOB = "archive.build";

/** Mastodon's BackupPolicy: one request per six days. */
export const ARCHIVE_REQUEST_INTERVAL_MS = 6 * 24 * 3600_000;

export async function requestArchive(
  ctx: ServiceContext,
  accountId: string,
  options: { byOperator?: boolean } = {},
): Promise<AccountArchive> {
  const existing = await archivesOf(ctx, accountId);
  if (existing.some((a) => a.state === "waiting" || a.state === "building")) {
    throw unprocessable("An archive is already being prepared");
  }
  const now = ctx.clock.now();
  const recent = existing.find(
    (a) => now.getTime() - Date.parse(a.createdAt) < ARCHIVE_REQUEST_INTERVAL_MS,
  );
  if (recent && !options.byOperator) {
    throw tooManyRequests("An archive can be requested once every six days");
  }
  const archive: AccountArchive = {
    id: ctx.ids.next(),
    accountId,
    state: "waiting",
    createdAt: now.toISOString(),
    finishedAt: null,
    expiresAt: null,
    done: 0,
    total: 0,
    fileKey: null,
    size: null,
    error: null,
  };
  await saveArchive(ctx, archive);
  await ctx.jobs.enqueue(ARCHIVE_BUILD_JOB, { accountId, archiveId: archive.id });
  return archive;
}
