// Mastodon's Status::Tag: a hashtag as embedded in a status. Pure. Names are stored lowercase.

import { createHash } from "node:crypto";

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

/** Mastodon's full Tag entity (search results), with `history` and an `id`. */
export interface TagEntityJson extends TagJson {
  id: string;
  history: { day: string; uses: string; accounts: string }[];
}

/**
 * Wren keeps no tag table, so a tag's `id` is derived from its name: a stable numeric string
 * (clients only use it for admin URLs). Usage history is not kept: `history` is empty.
 */
export function serializeTagEntity(name: string, publicUrl: string): TagEntityJson {
  const id = BigInt(`0x${createHash("sha256").update(name).digest("hex").slice(0, 13)}`);
  return { ...serializeTag(name, publicUrl), id: id.toString(), history: [] };
}
