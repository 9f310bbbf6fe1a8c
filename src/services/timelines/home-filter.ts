// Which statuses of followed accounts reach a home timeline: Mastodon's FeedManager rules
// (filter_from_home?), applied to a batch with every relation it needs read once:
// - the viewer's own statuses and reblogs always stay;
// - statuses and reblogs by members of the viewer's exclusive lists are left to those lists
//   (home only: the list timeline applies these rules without this one);
// - a reply whose parent is unknown is dropped;
// - a follow limited to some languages drops that account's statuses in other languages;
// - anything from, boosting, or mentioning an account the viewer blocks or mutes is dropped, and
//   anything by or boosting an account on a server the viewer blocks;
// - a reply stays only when it answers the viewer, someone the viewer follows, or the author;
// - a reblog is dropped when the viewer turned off that account's boosts, or when the
//   original's author blocks the viewer.
// Visibility (private, direct, blocks by the author) is checked separately by keepVisible.

import type { Follow } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";
import { type Exclusions, loadExclusions } from "./exclusions.ts";
import { exclusiveListMembers } from "./exclusive-lists.ts";
import type { ResolvedEntry } from "./resolve-entries.ts";

export async function filterHome(
  ctx: ServiceContext,
  viewerId: string,
  items: readonly ResolvedEntry[],
  options: { exclusiveLists: boolean } = { exclusiveLists: true },
): Promise<ResolvedEntry[]> {
  const others = items.filter((i) => i.status.accountId !== viewerId);
  if (others.length === 0) return [...items];

  const checked = new Set<string>();
  const related = new Set<string>();
  for (const { status, original } of others) {
    checked.add(status.accountId);
    for (const id of status.mentionIds) checked.add(id);
    if (original) {
      checked.add(original.accountId);
      for (const id of original.mentionIds) checked.add(id);
    }
    related.add(status.accountId);
    if (status.inReplyToAccountId) related.add(status.inReplyToAccountId);
  }
  const [exclusions, follows, listed] = await Promise.all([
    loadExclusions(ctx, viewerId, checked),
    ctx.storage.follows.findFrom(viewerId, [...related]),
    options.exclusiveLists
      ? exclusiveListMembers(
          ctx,
          viewerId,
          others.map((i) => i.status.accountId),
        )
      : new Set<string>(),
  ]);

  return items.filter(
    (item) => !listed.has(item.status.accountId) && keeps(item, viewerId, follows, exclusions),
  );
}

function keeps(
  { status, original }: ResolvedEntry,
  viewerId: string,
  follows: ReadonlyMap<string, Follow>,
  exclusions: Exclusions,
): boolean {
  if (status.accountId === viewerId) return true;
  if (status.inReplyToId !== null && status.inReplyToAccountId === null) return false;

  // Boosts carry no language of their own in Mastodon, so the language choice of a follow
  // applies to the account's own posts only.
  const languages = follows.get(status.accountId)?.languages;
  if (
    original === null &&
    languages &&
    languages.length > 0 &&
    status.language !== null &&
    !languages.includes(status.language)
  ) {
    return false;
  }

  const shutOut = (id: string) => exclusions.blocking.has(id) || exclusions.muting.has(id);
  if (shutOut(status.accountId) || status.mentionIds.some(shutOut)) return false;
  if (original && (shutOut(original.accountId) || original.mentionIds.some(shutOut))) return false;
  if (exclusions.domainBlocked.has(status.accountId)) return false;
  if (original && exclusions.domainBlocked.has(original.accountId)) return false;

  if (status.inReplyToAccountId !== null) {
    const parent = status.inReplyToAccountId;
    return parent === viewerId || parent === status.accountId || follows.has(parent);
  }
  if (original) {
    if (follows.get(status.accountId)?.showReblogs === false) return false;
    if (exclusions.blockedBy.has(original.accountId)) return false;
  }
  return true;
}
