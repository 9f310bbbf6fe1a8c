// Who takes part in a direct status: its author and everyone it mentions.

import { compareIds } from "../../domain/ids.ts";
import type { Status } from "../../domain/status.ts";

export function participantsOf(status: Status): string[] {
  return [...new Set([status.accountId, ...status.mentionIds])];
}

/** A sorted, duplicate-free copy (Mastodon keeps participant ids sorted). */
export function sortedIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort(compareIds);
}

/** Whether a status is one that direct-message conversations are made of. */
export function isDirectMessage(status: Status): boolean {
  return status.visibility === "direct" && status.reblogOfId === null;
}

export const conversationLockKey = (accountId: string, conversationId: string) =>
  `conversation:${accountId}:${conversationId}`;
