/** PreviewCard, from Mastodon's documentation (entities/PreviewCard.md): a link's preview. */
import {
  arrayOf,
  boolean,
  dateTime,
  entity,
  integer,
  nullable,
  object,
  oneOf,
  string,
  uri,
} from "../json-schema.ts";

/** A URL, or "" when the page named none (Mastodon's own examples show `"author_url": ""`). */
const uriOrEmpty = { anyOf: [uri, { type: "string", maxLength: 0 }] };

export const PreviewCard = object(
  {
    url: uri,
    title: string,
    description: string,
    type: oneOf("link", "photo", "video", "rich"),
    authors: arrayOf(object({ name: string, url: uri }, { account: nullable(entity("Account")) })),
    author_name: string,
    author_url: uriOrEmpty,
    provider_name: string,
    provider_url: uriOrEmpty,
    html: string,
    width: integer,
    height: integer,
    embed_url: uriOrEmpty,
  },
  {
    image: nullable(uri),
    blurhash: nullable(string),
    published_at: nullable(dateTime),
    missing_attribution: nullable(boolean),
  },
  "A preview of a link in a status",
);
