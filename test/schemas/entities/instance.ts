/** Instance (GET /api/v2/instance), from Mastodon's documentation (entities/Instance.md). */
import {
  arrayOf,
  boolean,
  email,
  entity,
  integer,
  language,
  nullable,
  object,
  oneOf,
  string,
  uri,
} from "../json-schema.ts";

const limit = nullable(integer);

/** Who may read a kind of feed (configuration.timelines_access). */
const feedAccess = (...values: string[]) =>
  object({}, { local: nullable(oneOf(...values)), remote: nullable(oneOf(...values)) });

const Configuration = object(
  {
    urls: object(
      {},
      {
        streaming: nullable(uri),
        status: nullable(uri),
        about: nullable(uri),
        privacy_policy: nullable(uri),
        terms_of_service: nullable(uri),
      },
    ),
    accounts: object(
      { max_featured_tags: integer, max_pinned_statuses: integer },
      {
        max_display_name_length: limit,
        max_note_length: limit,
        max_profile_fields: limit,
        profile_field_name_limit: limit,
        profile_field_value_limit: limit,
        max_avatar_description_length: limit,
        max_header_description_length: limit,
      },
    ),
    statuses: object({
      max_characters: integer,
      max_media_attachments: integer,
      characters_reserved_per_url: integer,
    }),
    media_attachments: object(
      {
        supported_mime_types: arrayOf(string),
        image_size_limit: integer,
        image_matrix_limit: integer,
        video_size_limit: integer,
        video_frame_rate_limit: integer,
        video_matrix_limit: integer,
      },
      { description_limit: limit },
    ),
    polls: object({
      max_options: integer,
      max_characters_per_option: integer,
      min_expiration: integer,
      max_expiration: integer,
    }),
    translation: object({ enabled: boolean }),
  },
  {
    limited_federation: nullable(boolean),
    timelines_access: nullable(
      object(
        {},
        {
          live_feeds: nullable(feedAccess("public", "authenticated", "disabled")),
          hashtag_feeds: nullable(feedAccess("public", "authenticated", "disabled")),
          trending_link_feeds: nullable(feedAccess("public", "authenticated", "disabled")),
        },
      ),
    ),
  },
);

export const Instance = object(
  {
    domain: string,
    title: string,
    version: string,
    source_url: uri,
    description: string,
    usage: object({ users: object({ active_month: integer }) }),
    thumbnail: object(
      { url: uri },
      {
        blurhash: nullable(string),
        description: nullable(string),
        versions: nullable(object({}, { "@1x": nullable(uri), "@2x": nullable(uri) })),
      },
    ),
    icon: arrayOf(object({ src: string, size: string })),
    languages: arrayOf(language),
    configuration: Configuration,
    registrations: object(
      { enabled: boolean, approval_required: boolean },
      {
        message: nullable(string),
        url: nullable(uri),
        min_age: nullable(integer),
        reason_required: nullable(boolean),
      },
    ),
    api_versions: object({ mastodon: integer }),
    contact: object({ email }, { account: nullable(entity("Account")) }),
    rules: arrayOf(entity("Rule")),
  },
  { wrapstodon: nullable(string) },
  "The server and its configuration",
);
