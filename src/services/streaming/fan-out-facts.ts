// What the streaming fan-out needs to know about every connected viewer of one signalled status,
// read in a handful of batched lookups whatever the number of viewers (one per relation kind and
// pivot: the author, the status, its conversation, its poll, its tags), where asking viewer by
// viewer costs the same lookups a thousand times. From these facts:
// - `publicShows` decides the public and hashtag streams exactly as the public timeline does
//   (public-filter.ts: exclusions, visibility, `hide` filters of the public context);
// - `mayShowAtHome` rules out, exactly, the viewers whose home timeline cannot hold the status
//   (neither theirs, nor by someone they follow, nor carrying a tag they follow); the few left
//   are asked the full home rules (audience.ts homeShows);
// - `renderingKey` names the rendering a viewer gets: the JSON of a status differs between
//   viewers only by what views/status-view.ts reads for the viewer (their flags, filter matches,
//   poll votes, quote approval, quoted status), so viewers with equal keys get the very same
//   bytes and the status is rendered once per key rather than once per viewer.

import type { FilterContext } from "../../domain/filter.ts";
import {
  type CompiledFilter,
  compileFilters,
  type FilterMatch,
  matchesInContext,
  matchStatus,
} from "../../domain/filter-match.ts";
import type { MediaAttachment } from "../../domain/media.ts";
import type { Poll } from "../../domain/poll.ts";
import { effectiveQuotePolicy } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";
import { canSee } from "../../domain/visibility.ts";
import type { ServiceContext } from "../context.ts";
import { isMuteActive } from "../graph/mute-expiry.ts";
import type { ResolvedEntry } from "../timelines/resolve-entries.ts";

export interface FanOutFacts {
  /** Whether a public or hashtag stream that takes the status may show it to the viewer. */
  publicShows(viewerId: string): boolean;
  /** False only when the viewer's home timeline cannot show the status. */
  mayShowAtHome(viewerId: string): boolean;
  /**
   * The viewer's rendering of the status in the filter context: equal keys, equal JSON. A key
   * holding the viewer's id marks a rendering of their own (a filter matched, a poll vote, a
   * quote); undefined when a `hide` filter of the context takes the status out.
   */
  renderingKey(viewerId: string, context: FilterContext): string | undefined;
}

/** Reblogs of a status read per page when finding which viewers boosted it. */
const REBLOG_PAGE = 1_000;

async function rebloggers(ctx: ServiceContext, statusId: string): Promise<Set<string>> {
  const out = new Set<string>();
  let maxId: string | undefined;
  for (;;) {
    const page = await ctx.storage.statuses.listReblogs(statusId, { limit: REBLOG_PAGE, maxId });
    for (const reblog of page) out.add(reblog.accountId);
    if (page.length < REBLOG_PAGE) return out;
    maxId = page.at(-1)?.id;
  }
}

/** Per status of the rendering (the status and its boosted original): who did what with it. */
async function statusFlags(ctx: ServiceContext, status: Status, viewers: readonly string[]) {
  const { storage } = ctx;
  const [[favourites, bookmarks], [mutes], [pins], votes, reblogs] = await Promise.all([
    storage.joined.edges(status.id, [
      { kind: "favourites", direction: "to", ids: viewers },
      { kind: "bookmarks", direction: "to", ids: viewers },
    ]),
    storage.joined.edges(status.conversationId, [
      { kind: "conversationMutes", direction: "to", ids: viewers },
    ]),
    storage.joined.edges(status.accountId, [{ kind: "pins", direction: "from", ids: [status.id] }]),
    status.pollId === null
      ? undefined
      : storage.joined
          .edges(status.pollId, [{ kind: "pollVotes", direction: "to", ids: viewers }])
          .then(([found]) => found),
    rebloggers(ctx, status.id),
  ]);
  const pinned = pins.has(status.id);
  const followersPolicy = effectiveQuotePolicy(status) === "followers";
  return { status, favourites, bookmarks, mutes, pinned, votes, reblogs, followersPolicy };
}

export async function loadFanOutFacts(
  ctx: ServiceContext,
  viewerIds: readonly string[],
  item: ResolvedEntry,
): Promise<FanOutFacts> {
  const { storage } = ctx;
  const { status, original } = item;
  const shown = original ?? status;
  const author = status.accountId;
  const viewers = [...new Set(viewerIds)];
  const others = viewers.filter((id) => id !== author);
  const rendered = original ? [status, original] : [status];
  const tagged = status.visibility === "public" && status.reblogOfId === null;

  const [authorEdges, account, filters, flags, originalFollowers, tagFollowers] = await Promise.all(
    [
      storage.joined.edges(author, [
        { kind: "blocks", direction: "to", ids: others },
        { kind: "mutes", direction: "to", ids: others },
        { kind: "blocks", direction: "from", ids: others },
        { kind: "follows", direction: "to", ids: others },
      ]),
      storage.accounts.get(author),
      storage.filters.listByAccounts(viewers),
      Promise.all(rendered.map((s) => statusFlags(ctx, s, viewers))),
      original && original.accountId !== author
        ? storage.joined
            .edges(original.accountId, [{ kind: "follows", direction: "to", ids: viewers }])
            .then(([found]) => found)
        : undefined,
      tagged
        ? Promise.all(
            [...new Set(status.tags)].map(async (tag) => {
              const [found] = await storage.joined.edges(tag, [
                { kind: "tagFollows", direction: "to", ids: others },
              ]);
              return found;
            }),
          )
        : [],
    ],
  );
  const [blockers, muters, blocked, followers] = authorEdges;
  const domain = account?.domain?.toLowerCase() ?? null;
  const domainBlockers =
    domain === null
      ? new Map()
      : (
          await storage.joined.edges(domain, [
            { kind: "accountDomainBlocks", direction: "to", ids: others },
          ])
        )[0];

  // What a hiding or marking filter matches in the text, as timelines read it (hidden.ts).
  const anyFilters = filters.size > 0;
  const [media, polls] = await Promise.all([
    anyFilters && shown.mediaIds.length > 0
      ? storage.media.getMany(shown.mediaIds)
      : new Map<string, MediaAttachment>(),
    anyFilters && shown.pollId !== null
      ? storage.polls.getMany([shown.pollId])
      : new Map<string, Poll>(),
  ]);
  const extras = {
    mediaDescription: (id: string) => media.get(id)?.description ?? null,
    pollOptions: (id: string) => polls.get(id)?.options.map((o) => o.title) ?? [],
  };
  const now = ctx.clock.now();
  const matched = new Map<string, FilterMatch[]>();
  const matchesOf = (viewerId: string): FilterMatch[] => {
    let matches = matched.get(viewerId);
    if (!matches) {
      const own = filters.get(viewerId);
      const compiled: CompiledFilter[] = own ? compileFilters(own, now) : [];
      matches = matchStatus(compiled, status, original, extras);
      matched.set(viewerId, matches);
    }
    return matches;
  };

  const excluded = (viewerId: string): boolean => {
    if (viewerId === author) return false;
    const mute = muters.get(viewerId);
    return (
      blockers.has(viewerId) ||
      (mute !== undefined && isMuteActive(mute, now)) ||
      blocked.has(viewerId) ||
      domainBlockers.has(viewerId)
    );
  };
  const quoting = rendered.some((s) => s.quote);

  return {
    publicShows(viewerId) {
      if (excluded(viewerId)) return false;
      const facts = {
        viewerId,
        followsAuthor: followers.has(viewerId),
        blockedByAuthor: blocked.has(viewerId),
      };
      if (!canSee(status, facts)) return false;
      return matchesInContext(matchesOf(viewerId), "public") !== null;
    },
    mayShowAtHome(viewerId) {
      if (viewerId === author || followers.has(viewerId)) return true;
      return tagFollowers.some((found) => found.has(viewerId));
    },
    renderingKey(viewerId, context) {
      const matches = matchesInContext(matchesOf(viewerId), context);
      if (matches === null) return undefined;
      if (matches.length > 0 || quoting) return `own:${viewerId}`;
      const parts: string[] = [];
      for (const f of flags) {
        const isAuthor = f.status.accountId === viewerId;
        const vote = f.votes?.get(viewerId);
        if (vote) return `own:${viewerId}`;
        const follows =
          f.followersPolicy &&
          (f.status.accountId === author ? followers : originalFollowers)?.has(viewerId) === true;
        parts.push(
          [
            isAuthor ? (f.pinned ? "P" : "A") : "-",
            f.favourites.has(viewerId) ? "f" : "-",
            f.bookmarks.has(viewerId) ? "b" : "-",
            f.mutes.has(viewerId) ? "m" : "-",
            f.reblogs.has(viewerId) ? "r" : "-",
            follows ? "F" : "-",
          ].join(""),
        );
      }
      return parts.join("|");
    },
  };
}
