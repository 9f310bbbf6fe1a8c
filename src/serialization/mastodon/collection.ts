// Mastodon's Collection and CollectionItem entities (4.6), from a viewer-tailored CollectionView.
// Pure. A collection's `uri` names it under its owner's actor, where Mastodon keeps its
// featured collections; collections are not federated yet (ADR 0023), and Wren serves no HTML
// page for one, so `url` is null.

import type { CollectionItem } from "../../domain/collection.ts";
import { normalizeTag } from "../../domain/text/hashtags.ts";
import type { CollectionView } from "../../views/collection-view.ts";
import { type TagJson, tagUrl } from "./tag.ts";

export interface CollectionItemJson {
  id: string;
  /** Only for pending and accepted items, as Mastodon. */
  account_id?: string;
  state: CollectionItem["state"];
  created_at: string;
}

export interface CollectionJson {
  id: string;
  uri: string;
  url: string | null;
  name: string;
  description: string;
  language: string | null;
  account_id: string;
  local: boolean;
  sensitive: boolean;
  discoverable: boolean;
  item_count: number;
  created_at: string;
  updated_at: string;
  tag: TagJson | null;
  items: CollectionItemJson[];
}

export function serializeCollectionItem(item: CollectionItem): CollectionItemJson {
  const live = item.state === "pending" || item.state === "accepted";
  return {
    id: item.id,
    ...(live ? { account_id: item.accountId } : {}),
    state: item.state,
    created_at: item.createdAt,
  };
}

export function collectionUri(ownerUri: string, collectionId: string): string {
  return `${ownerUri}/featured_collections/${collectionId}`;
}

export function serializeCollection(view: CollectionView, publicUrl: string): CollectionJson {
  const c = view.collection;
  const ownerUri = view.owner?.uri ?? `${publicUrl}/users/${c.accountId}`;
  return {
    id: c.id,
    uri: collectionUri(ownerUri, c.id),
    url: null,
    name: c.name,
    description: c.description,
    language: c.language,
    account_id: c.accountId,
    local: true,
    sensitive: c.sensitive,
    discoverable: c.discoverable,
    // Mastodon's counter counts every item row, revoked ones included.
    item_count: c.items.length,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    tag: c.tag === null ? null : { name: c.tag, url: tagUrl(normalizeTag(c.tag), publicUrl) },
    items: view.items.map(serializeCollectionItem),
  };
}
