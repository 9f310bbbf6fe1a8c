// Attachments of remote statuses: records that link the file where its server keeps it
// (`remoteUrl`), ready at once (nothing to process here), attached to their status. An edit
// that keeps an attachment (same URL) keeps its record, so clients see stable ids. The media of a
// domain blocked with reject_media are kept as `unknown` links (unknownOf).

import type { MediaAttachment } from "../../domain/media.ts";
import type { ServiceContext } from "../context.ts";
import { rejectsMedia } from "../domain-blocks/domain-blocks.ts";
import type { RemoteMediaDraft } from "./drafts.ts";

function recordOf(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
  draft: RemoteMediaDraft,
): MediaAttachment {
  const now = ctx.clock.now().toISOString();
  return {
    id: ctx.ids.next(),
    accountId,
    statusId,
    type: draft.type,
    state: "ready",
    failureReason: null,
    contentType: draft.contentType ?? "application/octet-stream",
    fileSize: 0,
    uploadKey: null,
    fileKey: null,
    previewKey: null,
    customPreviewKey: null,
    remoteUrl: draft.url,
    description: draft.description,
    focus: draft.focus,
    meta: draft.meta,
    blurhash: draft.blurhash,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * An attachment of a domain whose media are rejected (a domain block's reject_media): kept as
 * Mastodon keeps it, of type `unknown`, a link to where its server has it, with no preview,
 * dimensions or blurhash, so no client loads the file from here.
 */
function unknownOf(draft: RemoteMediaDraft): RemoteMediaDraft {
  return { ...draft, type: "unknown", meta: null, blurhash: null };
}

/**
 * Stores the attachments of a remote status (before the status, which then lists them);
 * `current` are the status's attachments so far, reused when their URL is drafted again.
 */
export async function storeRemoteMedia(
  ctx: ServiceContext,
  input: {
    accountId: string;
    statusId: string;
    drafts: readonly RemoteMediaDraft[];
    current?: readonly MediaAttachment[];
  },
): Promise<string[]> {
  const byUrl = new Map((input.current ?? []).map((m) => [m.remoteUrl, m]));
  const author = await ctx.storage.accounts.get(input.accountId);
  const rejected = await rejectsMedia(ctx, author?.domain ?? null);
  const ids: string[] = [];
  for (const draft of input.drafts) {
    const existing = byUrl.get(draft.url);
    if (existing) {
      const changed =
        existing.description !== draft.description || existing.blurhash !== draft.blurhash;
      if (changed) {
        await ctx.storage.media.put({
          ...existing,
          description: draft.description,
          blurhash: draft.blurhash,
          updatedAt: ctx.clock.now().toISOString(),
        });
      }
      ids.push(existing.id);
      continue;
    }
    const record = recordOf(
      ctx,
      input.accountId,
      input.statusId,
      rejected ? unknownOf(draft) : draft,
    );
    await ctx.storage.media.put(record);
    ids.push(record.id);
  }
  return ids;
}
