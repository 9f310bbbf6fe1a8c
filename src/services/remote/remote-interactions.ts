// Favourites, boosts and poll votes that remote actors make, as their servers report them
// (Like / EmojiReact, Announce, Undo of those, Create of a vote Note). The records and events
// are those of local interactions, so counters and notifications work the same; the activity
// ids are kept so the peer's Undo finds what it undoes.

import type { Account, Visibility } from "../../domain/account.ts";
import { AppError } from "../../domain/errors.ts";
import type { Favourite } from "../../domain/relations.ts";
import type { Status } from "../../domain/status.ts";
import { canReblog } from "../../domain/visibility.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround, publishIf } from "../events.ts";
import { storeReblog } from "../interactions/reblog-record.ts";
import { votePoll } from "../polls/vote.ts";
import { deleteStatus } from "../statuses/delete-status.ts";
import { visibleStatuses } from "../statuses/visibility.ts";

/** May the remote actor act on the status: can it see it, and is it not blocked by the author? */
async function mayInteract(ctx: ServiceContext, actor: Account, status: Status): Promise<boolean> {
  if (status.deleted || status.reblogOfId !== null) return false;
  const [visible] = await visibleStatuses(ctx, actor.id, [status]);
  return visible !== undefined;
}

/** A remote favourite (Like, EmojiReact, Misskey reaction). False when refused or known. */
export async function receiveFavourite(
  ctx: ServiceContext,
  actor: Account,
  status: Status,
  uri: string | null,
): Promise<boolean> {
  if (!(await mayInteract(ctx, actor, status))) return false;
  // The same lock as local favourites: a Like and a replay arriving together count once.
  return ctx.storage.coordination.withLock(`favourite:${actor.id}:${status.id}`, async () => {
    if (await ctx.storage.favourites.get(actor.id, status.id)) return false;
    const favourite: Favourite = {
      id: ctx.ids.next(),
      accountId: actor.id,
      targetId: status.id,
      createdAt: ctx.clock.now().toISOString(),
      uri,
    };
    // Recorded before the favourite (ADR 0013): a crash after it still notifies the author.
    await publishAround(ctx.events, { type: "status.favourited", favourite, status }, () =>
      ctx.storage.favourites.put(favourite),
    );
    return true;
  });
}

/** The remote actor took its favourite back (Undo Like / EmojiReact). */
export async function undoRemoteFavourite(
  ctx: ServiceContext,
  actor: Account,
  status: Status,
): Promise<boolean> {
  return ctx.storage.coordination.withLock(`favourite:${actor.id}:${status.id}`, async () => {
    const favourite = await ctx.storage.favourites.get(actor.id, status.id);
    if (!favourite) return false;
    return publishIf(ctx.events, { type: "status.unfavourited", favourite }, () =>
      ctx.storage.favourites.delete(actor.id, status.id),
    );
  });
}

export interface RemoteReblogInput {
  /** The Announce activity id: the boost's uri and url, as Mastodon stores it. */
  uri: string;
  visibility: Visibility;
  /** When the peer says it was boosted (ISO); a time in the future is replaced by now. */
  published: string | null;
}

/** A remote boost becomes a reblog status of the remote account. Undefined when refused. */
export async function receiveReblog(
  ctx: ServiceContext,
  actor: Account,
  original: Status,
  input: RemoteReblogInput,
): Promise<Status | undefined> {
  const known = await ctx.storage.statuses.findByUri(input.uri);
  if (known) return known.accountId === actor.id && !known.deleted ? known : undefined;
  if (!(await mayInteract(ctx, actor, original)) || !canReblog(original, actor.id))
    return undefined;
  // A boost is never direct, and never wider than a followers-only original.
  const visibility: Visibility = input.visibility === "direct" ? "private" : input.visibility;
  return ctx.storage.coordination.withLock(`reblog:${actor.id}:${original.id}`, async () => {
    const existing = await ctx.storage.statuses.findReblog(actor.id, original.id);
    if (existing) return existing;
    const now = ctx.clock.now();
    const published = input.published === null ? Number.NaN : Date.parse(input.published);
    const createdAt =
      Number.isNaN(published) || published > now.getTime()
        ? now.toISOString()
        : new Date(published).toISOString();
    return storeReblog(ctx, original, {
      id: ctx.ids.next(),
      accountId: actor.id,
      uri: input.uri,
      visibility,
      local: false,
      createdAt,
    });
  });
}

/** Undo Announce: the remote account's boost with this Announce id goes (owner only). */
export async function undoRemoteReblog(
  ctx: ServiceContext,
  actor: Account,
  announceUri: string,
): Promise<boolean> {
  const reblog = await ctx.storage.statuses.findByUri(announceUri);
  if (!reblog || reblog.deleted || reblog.reblogOfId === null || reblog.accountId !== actor.id) {
    return false;
  }
  await deleteStatus(ctx, actor.id, reblog.id);
  return true;
}

/**
 * A remote vote (a Create of a Note whose `name` is an option's title, in reply to the poll).
 * Invalid votes (ended poll, unknown option, second vote) are ignored, as Mastodon does.
 */
export async function receiveVote(
  ctx: ServiceContext,
  voter: Account,
  pollStatus: Status,
  optionTitle: string,
): Promise<boolean> {
  if (pollStatus.pollId === null || !pollStatus.local) return false;
  const poll = await ctx.storage.polls.get(pollStatus.pollId);
  const choice = poll?.options.findIndex((o) => o.title === optionTitle) ?? -1;
  if (!poll || choice < 0) return false;
  try {
    await votePoll(ctx, { accountId: voter.id, pollId: poll.id, choices: [choice] });
    return true;
  } catch (error) {
    // A refused vote is the peer's problem; storage failures still surface (and are retried).
    if (error instanceof AppError) return false;
    throw error;
  }
}
