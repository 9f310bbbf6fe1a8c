// Account archives (Mastodon's "Request your archive"): one record per request in the key-value
// store, `["account-archive", accountId, id]`, with its state and progress; the finished zip is
// a file of the file host under a random key (never published: only its owner downloads it,
// through the settings page or `wren archive`). Records and files expire a week after the
// archive is ready (pruned daily by the kv.prune job).

import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

export type ArchiveState = "waiting" | "building" | "ready" | "failed";

export interface AccountArchive {
  id: string;
  accountId: string;
  state: ArchiveState;
  createdAt: string;
  finishedAt: string | null;
  /** When the file and record are removed (a week after it is ready); null until then. */
  expiresAt: string | null;
  /** Items written and to write (statuses, then media files), for the progress shown. */
  done: number;
  total: number;
  fileKey: string | null;
  size: number | null;
  error: string | null;
}

/** How long a finished archive stays downloadable. */
export const ARCHIVE_TTL_MS = 7 * 24 * 3600_000;

const PREFIX = "account-archive";
const keyOf = (accountId: string, id: string) => [PREFIX, accountId, id];

export function saveArchive(ctx: ServiceContext, archive: AccountArchive): Promise<void> {
  return ctx.storage.kv.set({
    key: keyOf(archive.accountId, archive.id),
    value: archive,
    expiresAt: null,
  });
}

export async function findArchive(
  ctx: ServiceContext,
  accountId: string,
  id: string,
): Promise<AccountArchive | undefined> {
  return (await ctx.storage.kv.get(keyOf(accountId, id)))?.value as AccountArchive | undefined;
}

export async function requireArchive(
  ctx: ServiceContext,
  accountId: string,
  id: string,
): Promise<AccountArchive> {
  const archive = await findArchive(ctx, accountId, id);
  if (!archive || isExpired(ctx, archive)) throw notFound("No such archive");
  return archive;
}

export function isExpired(ctx: ServiceContext, archive: AccountArchive): boolean {
  return archive.expiresAt !== null && archive.expiresAt <= ctx.clock.now().toISOString();
}

/** The account's archives, newest first, without the expired ones. */
export async function archivesOf(
  ctx: ServiceContext,
  accountId: string,
): Promise<AccountArchive[]> {
  return (await ctx.storage.kv.list([PREFIX, accountId]))
    .map((entry) => entry.value as AccountArchive)
    .filter((archive) => !isExpired(ctx, archive))
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
}

/** Removes expired archives, file and record; returns how many went. */
export async function pruneExpiredArchives(ctx: ServiceContext): Promise<number> {
  let removed = 0;
  for (const entry of await ctx.storage.kv.list([PREFIX])) {
    const archive = entry.value as AccountArchive;
    if (!isExpired(ctx, archive)) continue;
    // The file first: a record without its file is harmless, a file without its record leaks.
    if (archive.fileKey) await ctx.files.delete(archive.fileKey);
    if (await ctx.storage.kv.delete(entry.key)) removed++;
  }
  return removed;
}
