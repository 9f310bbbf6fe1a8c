/**
 * Collection and CollectionItem, from Mastodon's documentation (entities/Collection.md,
 * CollectionItem.md; Mastodon 4.6): a user's curated collection of accounts they recommend.
 */
import {
  arrayOf,
  boolean,
  dateTime,
  entity,
  integer,
  language,
  nullable,
  object,
  oneOf,
  string,
  uri,
} from "../json-schema.ts";

export const CollectionItem = object(
  {
    id: string,
    state: oneOf("pending", "accepted", "rejected", "revoked"),
    created_at: dateTime,
  },
  { account_id: nullable(string) },
  "One account featured in a Collection",
);

export const Collection = object(
  {
    id: string,
    uri,
    name: string,
    description: string,
    account_id: string,
    local: boolean,
    sensitive: boolean,
    discoverable: boolean,
    item_count: integer,
    items: arrayOf(entity("CollectionItem")),
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    url: nullable(uri),
    language: nullable(language),
    tag: nullable(entity("StatusTag")),
  },
  "A curated collection of accounts that a user recommends others to follow",
);

/** GET /api/v1/collections/:id: the collection and the accounts in it, owner first. */
export const CollectionWithAccounts = object(
  { collection: entity("Collection"), accounts: arrayOf(entity("Account")) },
  {},
  "A Collection plus the full account data of its owner and items",
);

export const WrappedCollection = object({ collection: entity("Collection") });
export const WrappedCollectionItem = object({ collection_item: entity("CollectionItem") });
export const Collections = object({ collections: arrayOf(entity("Collection")) });
