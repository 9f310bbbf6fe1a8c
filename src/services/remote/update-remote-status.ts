// Applies a remote edit (Update of a Note or Question) to the stored status, as a local edit
// does: the version replaced is kept in the history (statusEdits) and `status.updated` tells
// those who boosted or favourited it. An update that changes nothing readers see — a poll's
// new counts, or an older version arriving late — is no edit: counts are stored, nothing else.

import type { StatusQuote } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { applyRemoteQuoteFields } from "../quotes/remote-quote-fields.ts";
import { snapshotOf } from "../statuses/edit-status.ts";
import type { RemoteStatusDraft } from "./drafts.ts";
import { storeRemoteEmojis } from "./remote-emojis.ts";
import { storeRemoteMedia } from "./remote-media.ts";
import { createRemotePoll, updateRemotePoll } from "./remote-poll.ts";

export interface UpdateRemoteStatusInput {
  /** The stored status (already checked to belong to the updating actor). */
  status: Status;
  draft: RemoteStatusDraft;
  mentionIds: readonly string[];
  /** The quote as the federation layer resolved it anew; absent keeps the stored one. */
  quote?: StatusQuote | null;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** Returns the stored status after the update (unchanged when it was not an edit). */
export async function updateRemoteStatus(
  ctx: ServiceContext,
  input: UpdateRemoteStatusInput,
): Promise<Status> {
  const { draft } = input;
  return ctx.storage.coordination.withLock(`remote-status:${input.status.uri}`, async () => {
    const stored = (await ctx.storage.statuses.get(input.status.id)) ?? input.status;
    if (stored.deleted || stored.local) return stored;
    // Quote fields change without an edit (an approval restated, a new policy).
    const status = await applyRemoteQuoteFields(ctx, stored, draft, input.quote);

    let pollChanged = false;
    let pollId = status.pollId;
    if (draft.poll && status.pollId) {
      const updated = await updateRemotePoll(ctx, status.pollId, draft.poll);
      pollChanged = updated?.choicesChanged ?? false;
    } else if (draft.poll) {
      const poll = await createRemotePoll(ctx, {
        statusId: status.id,
        accountId: status.accountId,
        draft: draft.poll,
      });
      pollId = poll.id;
      pollChanged = true;
    }

    // A version not newer than the one we show is old news (deliveries can overtake).
    const current = status.editedAt ?? status.createdAt;
    if (draft.updatedAt !== null && draft.updatedAt <= current && !pollChanged) return status;

    const currentMedia = [...(await ctx.storage.media.getMany(status.mediaIds)).values()];
    const currentUrls = status.mediaIds.map(
      (id) => currentMedia.find((m) => m.id === id)?.remoteUrl ?? "",
    );
    const mediaChanged = !sameList(
      currentUrls,
      draft.media.map((m) => m.url),
    );
    const textChanged =
      draft.contentHtml !== status.contentHtml ||
      draft.spoilerText !== status.spoilerText ||
      draft.sensitive !== status.sensitive;
    if (!textChanged && !mediaChanged && !pollChanged) {
      if (pollId === status.pollId) return status;
    }

    const accountDomain = (await ctx.storage.accounts.get(status.accountId))?.domain ?? "";
    await storeRemoteEmojis(ctx, accountDomain, draft.emojis);
    const mediaIds = mediaChanged
      ? await storeRemoteMedia(ctx, {
          accountId: status.accountId,
          statusId: status.id,
          drafts: draft.media,
          current: currentMedia,
        })
      : status.mediaIds;
    await ctx.storage.statusEdits.put(snapshotOf(ctx, status));
    const now = ctx.clock.now().toISOString();
    const edited: Status = {
      ...status,
      contentHtml: draft.contentHtml,
      spoilerText: draft.spoilerText,
      sensitive: draft.sensitive,
      language: draft.language ?? status.language,
      mentionIds: [...new Set([...status.mentionIds, ...input.mentionIds])],
      tags: draft.tags,
      mediaIds,
      pollId,
      editedAt: draft.updatedAt !== null && draft.updatedAt <= now ? draft.updatedAt : now,
    };
    // Recorded before the edit (ADR 0013).
    await publishAround(ctx.events, { type: "status.updated", status: edited }, () =>
      ctx.storage.statuses.put(edited),
    );
    return edited;
  });
}
