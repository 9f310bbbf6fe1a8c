// The reblog status record itself, shared by local boosts and the boosts peers report, so both
// kinds look the same to timelines, counters and notifications.

import type { Visibility } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";

export interface ReblogRecordInput {
  id: string;
  accountId: string;
  /** The Announce activity id: Mastodon gives a boost it as both uri and url. */
  uri: string;
  visibility: Visibility;
  local: boolean;
  createdAt: string;
}

/** Stores the reblog of `original` and publishes `status.reblogged`; callers hold the reblog lock. */
export async function storeReblog(
  ctx: ServiceContext,
  original: Status,
  input: ReblogRecordInput,
): Promise<Status> {
  const reblog: Status = {
    id: input.id,
    accountId: input.accountId,
    uri: input.uri,
    url: input.uri,
    text: "",
    contentHtml: "",
    spoilerText: "",
    visibility: input.visibility,
    sensitive: false,
    language: null,
    inReplyToId: null,
    inReplyToAccountId: null,
    // Same conversation as the original, so muting the thread through a boost works.
    conversationId: original.conversationId,
    reblogOfId: original.id,
    mentionIds: [],
    tags: [],
    mediaIds: [],
    pollId: null,
    applicationId: null,
    local: input.local,
    createdAt: input.createdAt,
    editedAt: null,
    deleted: false,
    deletedAt: null,
  };
  // Recorded before the boost (ADR 0013): a crash after it still sends the Announce.
  await publishAround(ctx.events, { type: "status.reblogged", reblog, original }, () =>
    ctx.storage.statuses.put(reblog),
  );
  return reblog;
}
