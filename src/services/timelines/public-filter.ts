// What the public and hashtag timelines keep of a batch for one viewer: public, non-boost
// statuses (the store already lists only those; checked again so nothing private can slip in),
// optionally without replies to others, minus accounts the viewer has shut out and statuses
// their `hide` filters of the public context take out, and minus the posts of accounts on servers
// an admin silenced (a `silence` domain block), unless the viewer follows the author.

import type { Status, TimelineEntry } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { silencedHosts } from "../domain-blocks/domain-blocks.ts";
import { withoutHidden } from "../filters/hidden.ts";
import { loadExclusions } from "./exclusions.ts";
import { keepVisible, lineUp, type ResolvedEntry, resolveEntries } from "./resolve-entries.ts";

/** A reply to someone else; an author continuing their own thread is not one (Mastodon). */
export function isReplyToOther(status: Status): boolean {
  return status.inReplyToId !== null && status.inReplyToAccountId !== status.accountId;
}

/** The host of a remote status (its ActivityPub id's, which its author's server owns). */
function remoteHost(status: Status): string | null {
  if (status.local) return null;
  try {
    return new URL(status.uri).host;
  } catch {
    return null;
  }
}

async function withoutSilenced(
  ctx: ServiceContext,
  viewerId: string | null,
  items: ResolvedEntry[],
): Promise<ResolvedEntry[]> {
  const hosts = items.flatMap((i) => remoteHost(i.status) ?? []);
  if (hosts.length === 0) return items;
  const silenced = await silencedHosts(ctx, hosts);
  if (silenced.size === 0) return items;
  const authors = items
    .filter((i) => silenced.has(remoteHost(i.status) ?? ""))
    .map((i) => i.status.accountId);
  const [followed] =
    viewerId === null
      ? [new Map()]
      : await ctx.storage.joined.edges(viewerId, [
          { kind: "follows", direction: "from", ids: [...new Set(authors)] },
        ]);
  return items.filter((i) => {
    const host = remoteHost(i.status);
    return host === null || !silenced.has(host) || followed?.has(i.status.accountId) === true;
  });
}

export async function keepPublic(
  ctx: ServiceContext,
  viewerId: string | null,
  batch: readonly TimelineEntry[],
  options: { withReplies: boolean; also?: (status: Status) => boolean },
): Promise<(ResolvedEntry | undefined)[]> {
  const resolved = (await resolveEntries(ctx, batch)).filter(
    ({ status }) =>
      status.visibility === "public" &&
      status.reblogOfId === null &&
      (options.withReplies || !isReplyToOther(status)) &&
      (options.also === undefined || options.also(status)),
  );
  const exclusions = await loadExclusions(
    ctx,
    viewerId,
    resolved.map((i) => i.status.accountId),
  );
  const shown = resolved.filter((i) => !exclusions.excludes(i.status.accountId));
  const allowed = await withoutSilenced(ctx, viewerId, shown);
  const visible = await keepVisible(ctx, viewerId, allowed);
  return lineUp(
    batch.map((e) => e.status_id),
    await withoutHidden(ctx, viewerId, "public", visible),
  );
}
