// Whom to follow (Mastodon's follow suggestions). Candidates come from two kinds of source,
// bounded so that one request reads a fixed amount of the follow graph, however large:
//   - friends of friends: the accounts followed by the people the viewer most recently followed
//     (FOLLOWS_READ of them, FOLLOWS_PER_FRIEND follows each), an account featured (endorsed) by
//     one of them counting ENDORSEMENT_WEIGHT times a plain follow: a deliberate recommendation;
//   - most followed: the local accounts with the most followers (one batched count over the
//     local accounts), for everyone: a new user who follows nobody yet gets these alone.
// Personal candidates come first, by how many of the viewer's friends point at them, then the
// most followed. Only discoverable, unsuspended accounts are suggested (an account that did not
// opt in is never pushed at strangers), and never the viewer, whom they follow or asked to
// follow, whom they shut out (discovery/shut-out.ts), nor whom they dismissed.

import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { onBlockedDomain } from "../graph/blocked-domains.ts";
import { ENDORSEMENTS_LIMIT } from "../graph/endorse.ts";
import { shutOutBy } from "./shut-out.ts";

/** Mastodon's names for where a suggestion comes from. */
export type SuggestionSource = "friends_of_friends" | "most_followed";

export interface Suggestion {
  account: Account;
  sources: SuggestionSource[];
}

/** How many of the viewer's newest follows are asked whom they follow. */
const FOLLOWS_READ = 40;
/** How many of each friend's newest follows are read. */
const FOLLOWS_PER_FRIEND = 200;
/** A friend's endorsement counts as this many follows. */
const ENDORSEMENT_WEIGHT = 3;
/** How many of the most followed local accounts are considered. */
const MOST_FOLLOWED_READ = 200;

interface Candidate {
  score: number;
  followers: number;
  sources: Set<SuggestionSource>;
}

export async function followSuggestions(
  ctx: ServiceContext,
  viewerId: string,
  limit: number,
): Promise<Suggestion[]> {
  const { follows, followRequests, endorsements, suggestionDismissals, users } = ctx.storage;
  const [following, requested, dismissed, shutOut, friends, localUsers] = await Promise.all([
    follows.allTargetsFrom(viewerId),
    followRequests.allTargetsFrom(viewerId),
    suggestionDismissals.allTargetsFrom(viewerId),
    shutOutBy(ctx, viewerId),
    follows.listFrom(viewerId, { limit: FOLLOWS_READ }),
    users.list(),
  ]);
  const excluded = new Set([viewerId, ...following, ...requested, ...dismissed]);
  for (const id of shutOut.accountIds) excluded.add(id);

  const candidates = new Map<string, Candidate>();
  const add = (id: string, source: SuggestionSource, score: number, followers = 0) => {
    if (excluded.has(id)) return;
    const c = candidates.get(id) ?? { score: 0, followers: 0, sources: new Set() };
    c.score += score;
    c.followers = Math.max(c.followers, followers);
    c.sources.add(source);
    candidates.set(id, c);
  };

  const friendEdges = await Promise.all(
    friends.map((f) =>
      Promise.all([
        follows.listFrom(f.targetId, { limit: FOLLOWS_PER_FRIEND }),
        endorsements.listFrom(f.targetId, { limit: ENDORSEMENTS_LIMIT }),
      ]),
    ),
  );
  for (const [theirFollows, theirEndorsements] of friendEdges) {
    for (const e of theirFollows) add(e.targetId, "friends_of_friends", 1);
    for (const e of theirEndorsements) add(e.targetId, "friends_of_friends", ENDORSEMENT_WEIGHT);
  }

  const localIds = localUsers.map((u) => u.accountId).filter((id) => !excluded.has(id));
  const followerCounts = await follows.countToMany(localIds);
  const mostFollowed = [...followerCounts]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MOST_FOLLOWED_READ);
  for (const [id, n] of mostFollowed) add(id, "most_followed", 0, n);

  const ranked = [...candidates].sort(
    ([, a], [, b]) => b.score - a.score || b.followers - a.followers,
  );
  const accounts = await ctx.storage.accounts.getMany(ranked.map(([id]) => id));
  const out: Suggestion[] = [];
  for (const [id, c] of ranked) {
    const account = accounts.get(id);
    if (!account?.discoverable || account.suspended) continue;
    if (onBlockedDomain(account, shutOut.domains)) continue;
    out.push({ account, sources: [...c.sources] });
    if (out.length === limit) break;
  }
  return out;
}

/**
 * Never suggests the account to the viewer again. Mastodon answers success for any id, even one
 * naming no account, so only real accounts are recorded and nothing is refused.
 */
export async function dismissSuggestion(
  ctx: ServiceContext,
  viewerId: string,
  accountId: string,
): Promise<void> {
  if (accountId === viewerId) return;
  const account = await ctx.storage.accounts.get(accountId);
  if (!account) return;
  const store = ctx.storage.suggestionDismissals;
  if (await store.get(viewerId, account.id)) return;
  await store.put({
    id: ctx.ids.next(),
    accountId: viewerId,
    targetId: account.id,
    createdAt: ctx.clock.now().toISOString(),
  });
}
