// One writer at a time per attachment, across every process on the storage. Processing (in a
// job or inline), PUT /api/v1/media/:id, status edits and attaching all read an attachment,
// change some fields and write it back; without the lock a late writer would put back stale
// fields (a description typed while the file was processing, or a processing result over an
// attach).

import type { ServiceContext } from "../context.ts";

export function withMediaLock<T>(
  ctx: ServiceContext,
  mediaId: string,
  work: () => Promise<T>,
): Promise<T> {
  return ctx.storage.coordination.withLock(`media:${mediaId}`, work);
}

/**
 * Attaching checks "unattached" and then writes; two posts of one account racing with the same
 * media would both pass. Only the owner can attach, so one lock per account is enough. Taken
 * before any media lock, never inside one.
 */
export function withAttachLock<T>(
  ctx: ServiceContext,
  accountId: string,
  work: () => Promise<T>,
): Promise<T> {
  return ctx.storage.coordination.withLock(`media-attach:${accountId}`, work);
}
