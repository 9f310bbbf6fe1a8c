// Mastodon's FeaturedTag: a hashtag on a profile, with the owner's statuses carrying it. Pure.
// `url` is the owner's statuses with the tag: Wren's own profile page for a local account, the
// remote profile's `/tagged/<name>` for a remote one (Mastodon's form of it).

import { type Account, acctOf } from "../../domain/account.ts";
import type { FeaturedTag } from "../../domain/relations.ts";
import type { FeaturedTagView } from "../../views/tag-view.ts";

export interface FeaturedTagJson {
  id: string;
  name: string;
  url: string;
  /** A string, as Mastodon sends it. */
  statuses_count: string;
  last_status_at: string | null;
}

export function featuredTagUrl(tag: FeaturedTag, owner: Account, publicUrl: string): string {
  const path = `tagged/${encodeURIComponent(tag.targetId)}`;
  return owner.domain === null
    ? `${publicUrl}/@${acctOf(owner)}/${path}`
    : `${owner.url.replace(/\/$/, "")}/${path}`;
}

export function serializeFeaturedTag(view: FeaturedTagView, publicUrl: string): FeaturedTagJson {
  return {
    id: view.tag.id,
    name: view.tag.name,
    url: featuredTagUrl(view.tag, view.owner, publicUrl),
    statuses_count: String(view.statusesCount),
    // Mastodon sends the day only (a date, not a time).
    last_status_at: view.lastStatusAt === null ? null : view.lastStatusAt.slice(0, 10),
  };
}
