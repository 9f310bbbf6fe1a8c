// A poll's counters live on its record, so every change to it (a vote, an edit) is a
// read-modify-write: they run one at a time per poll across every process on the storage, or two
// voters arriving together would each add to the same old count and one vote would vanish.

import type { ServiceContext } from "../context.ts";

export function withPollLock<T>(
  ctx: ServiceContext,
  pollId: string,
  work: () => Promise<T>,
): Promise<T> {
  return ctx.storage.coordination.withLock(`poll:${pollId}`, work);
}
