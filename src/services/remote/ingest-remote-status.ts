// Stores a remote post (a Create, a fetched object) as a status under its author's account:
// once per ActivityPub id (a replay or a second delivery returns what is stored), joined to
// the thread of the status it replies to, with its attachments, poll and emojis, and announced
// with the same `status.created` event as a local post, so mentions of local accounts notify
// and conversations update.

import type { Account } from "../../domain/account.ts";
import type { StatusQuote } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround, publishIf } from "../events.ts";
import { removeMediaAttachment } from "../media/remove-media.ts";
import type { RemoteStatusDraft } from "./drafts.ts";
import { storeRemoteEmojis } from "./remote-emojis.ts";
import { storeRemoteMedia } from "./remote-media.ts";
import { createRemotePoll } from "./remote-poll.ts";

export interface IngestRemoteStatusInput {
  /** The author (already checked to own the object). */
  account: Account;
  draft: RemoteStatusDraft;
  /** The stored status it replies to, when known. */
  inReplyTo: Status | null;
  /** Accounts its Mention tags name that we have records of, in order. */
  mentionIds: readonly string[];
  /** The quote it makes, resolved by the federation layer (federation/quotes/). */
  quote?: StatusQuote | null;
}

/** `published`, unless absent or in the future (a clock ahead must not pin it on top). */
export function createdAtOf(ctx: ServiceContext, publishedAt: string | null): string {
  const now = ctx.clock.now().toISOString();
  return publishedAt !== null && publishedAt <= now ? publishedAt : now;
}

/** Only an `updated` after `published` says the post was edited. */
export function editedAtOf(draft: RemoteStatusDraft, createdAt: string): string | null {
  return draft.updatedAt !== null && draft.updatedAt > createdAt ? draft.updatedAt : null;
}

/**
 * Runs `work` under the lock of the remote status `uri` (which its updates and deletions take
 * too), given the status stored under it as read once the lock is held.
 */
function lockedWithStored<T>(
  ctx: ServiceContext,
  uri: string,
  work: (stored: Status | undefined) => Promise<T>,
): Promise<T> {
  const { coordination, statuses } = ctx.storage;
  return coordination.withLock(`remote-status:${uri}`, async () =>
    work(await statuses.findByUri(uri)),
  );
}

/** The status to store for the draft, its emojis, attachments and poll stored first. */
async function statusOf(ctx: ServiceContext, input: IngestRemoteStatusInput): Promise<Status> {
  const { account, draft, inReplyTo } = input;
  const id = ctx.ids.next();
  await storeRemoteEmojis(ctx, account.domain ?? "", draft.emojis);
  const mediaIds = await storeRemoteMedia(ctx, {
    accountId: account.id,
    statusId: id,
    drafts: draft.media,
  });
  // The poll first, so the status never points at a poll that is not there.
  const poll = draft.poll
    ? await createRemotePoll(ctx, { statusId: id, accountId: account.id, draft: draft.poll })
    : null;
  const createdAt = createdAtOf(ctx, draft.publishedAt);
  return {
    id,
    accountId: account.id,
    uri: draft.uri,
    url: draft.url,
    text: "",
    contentHtml: draft.contentHtml,
    spoilerText: draft.spoilerText,
    visibility: draft.visibility,
    sensitive: draft.sensitive,
    language: draft.language,
    inReplyToId: inReplyTo?.id ?? null,
    inReplyToAccountId: inReplyTo?.accountId ?? null,
    conversationId: inReplyTo?.conversationId ?? id,
    reblogOfId: null,
    mentionIds: [...new Set(input.mentionIds)],
    tags: draft.tags,
    mediaIds,
    pollId: poll?.id ?? null,
    applicationId: null,
    local: false,
    createdAt,
    editedAt: editedAtOf(draft, createdAt),
    deleted: false,
    deletedAt: null,
    quote: input.quote ?? null,
    quotePolicy: draft.quotePolicy,
  };
}

/**
 * Where the storage settles racing puts of one uri itself (StatusStore.putNew, ADR 0080): no
 * lock. The caller looked for the post just before (remote-objects.ts), so a status found here
 * is one stored meanwhile by another ingest; the attachments and poll made for this copy are
 * then taken away again.
 */
async function storeFirstOfUri(
  ctx: ServiceContext,
  input: IngestRemoteStatusInput,
  putNew: (status: Status) => Promise<Status | undefined>,
): Promise<Status> {
  const status = await statusOf(ctx, input);
  let taken: Status | undefined;
  // Recorded before the status (ADR 0013); the record goes again when another copy won.
  await publishIf(ctx.events, { type: "status.created", status }, async () => {
    taken = await putNew(status);
    return taken === undefined;
  });
  if (taken === undefined) return status;
  for (const id of status.mediaIds) {
    await removeMediaAttachment(ctx, id, (media) => media.statusId === status.id);
  }
  if (status.pollId !== null) await ctx.storage.polls.delete(status.pollId);
  return taken;
}

/** Returns the stored status: the new one, or the one already stored under this id. */
export async function ingestRemoteStatus(
  ctx: ServiceContext,
  input: IngestRemoteStatusInput,
): Promise<Status> {
  const { statuses } = ctx.storage;
  if (statuses.putNew) return storeFirstOfUri(ctx, input, statuses.putNew.bind(statuses));
  return lockedWithStored(ctx, input.draft.uri, async (existing) => {
    if (existing) return existing;
    const status = await statusOf(ctx, input);
    // Recorded before the status (ADR 0013): a crash after it still notifies those mentioned.
    await publishAround(ctx.events, { type: "status.created", status }, () => statuses.put(status));
    return status;
  });
}
