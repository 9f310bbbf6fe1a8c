// What the public and hashtag timelines keep of a batch for one viewer: public, non-boost
// statuses (the store already lists only those; checked again so nothing private can slip in),
// optionally without replies to others, minus accounts the viewer has shut out, silenced
// accounts (or accounts of silenced servers) the viewer does not follow (silenced.ts), and
// statuses their `hide` filters of the public context take out.

import type { Status, TimelineEntry } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { withoutHidden } from "../filters/hidden.ts";
import { loadExclusions } from "./exclusions.ts";
import { keepVisible, lineUp, type ResolvedEntry, resolveEntries } from "./resolve-entries.ts";
import { silencedFor } from "./silenced.ts";

/** A reply to someone else; an author continuing their own thread is not one (Mastodon). */
export function isReplyToOther(status: Status): boolean {
  return status.inReplyToId !== null && status.inReplyToAccountId !== status.accountId;
}

export interface PublicOptions {
  withReplies: boolean;
  also?: (status: Status) => boolean;
}

/** What every viewer may be shown of a batch: its public non-boosts (by the options), resolved. */
export async function resolvePublic(
  ctx: ServiceContext,
  batch: readonly TimelineEntry[],
  options: PublicOptions,
): Promise<ResolvedEntry[]> {
  return (await resolveEntries(ctx, batch)).filter(
    ({ status }) =>
      status.visibility === "public" &&
      status.reblogOfId === null &&
      (options.withReplies || !isReplyToOther(status)) &&
      (options.also === undefined || options.also(status)),
  );
}

export async function keepPublic(
  ctx: ServiceContext,
  viewerId: string | null,
  batch: readonly TimelineEntry[],
  options: PublicOptions,
  /** resolvePublic's answer for the batch, when the caller has it already. */
  resolvedBatch?: readonly ResolvedEntry[],
): Promise<(ResolvedEntry | undefined)[]> {
  const resolved = resolvedBatch ?? (await resolvePublic(ctx, batch, options));
  const authorIds = resolved.map((i) => i.status.accountId);
  const [exclusions, silenced] = await Promise.all([
    loadExclusions(ctx, viewerId, authorIds),
    silencedFor(ctx, viewerId, authorIds),
  ]);
  const allowed = resolved.filter(
    (i) => !exclusions.excludes(i.status.accountId) && !silenced.has(i.status.accountId),
  );
  const visible = await keepVisible(ctx, viewerId, allowed);
  return lineUp(
    batch.map((e) => e.status_id),
    await withoutHidden(ctx, viewerId, "public", visible),
  );
}
