// Mastodon's Status::Tag: a hashtag as embedded in a status. Pure. Names are stored lowercase.

import { reviewIdOf } from "../../domain/trend-review.ts";
import type { TagView } from "../../views/tag-view.ts";

export interface TagJson {
  name: string;
  url: string;
}

export function tagUrl(name: string, publicUrl: string): string {
  return `${publicUrl}/tags/${encodeURIComponent(name)}`;
}

export function serializeTag(name: string, publicUrl: string): TagJson {
  return { name, url: tagUrl(name, publicUrl) };
}

/** Mastodon's full Tag entity (GET /tags/:name, followed tags, search), with `history`. */
export interface TagEntityJson extends TagJson {
  id: string;
  history: { day: string; uses: string; accounts: string }[];
  following?: boolean;
  featuring?: boolean;
}

/**
 * Wren keeps no tag table, so a tag's `id` is derived from its normalised name: a stable numeric
 * string (clients only use it for admin URLs).
 */
export const tagId = (normalized: string): string => reviewIdOf("tag", normalized);

/** Counts are strings, as Mastodon sends them; `following`/`featuring` only for a viewer. */
export function serializeTagEntity(view: TagView, publicUrl: string): TagEntityJson {
  return {
    id: tagId(view.normalized),
    name: view.name,
    url: tagUrl(view.normalized, publicUrl),
    history: view.history.map((d) => ({
      day: String(d.day),
      uses: String(d.uses),
      accounts: String(d.accounts),
    })),
    ...(view.following === null ? {} : { following: view.following }),
    ...(view.featuring === null ? {} : { featuring: view.featuring }),
  };
}
