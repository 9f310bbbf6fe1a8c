/** V1_Instance (GET /api/v1/instance), from Mastodon's documentation (entities/V1_Instance.md). */
import {
  arrayOf,
  boolean,
  email,
  entity,
  integer,
  language,
  nullable,
  object,
  string,
  uri,
} from "../json-schema.ts";

export const V1Instance = object(
  {
    uri: string,
    title: string,
    short_description: string,
    description: string,
    email,
    version: string,
    urls: object({ streaming_api: uri }),
    stats: object({ user_count: integer, status_count: integer, domain_count: integer }),
    languages: arrayOf(language),
    registrations: boolean,
    approval_required: boolean,
    invites_enabled: boolean,
    configuration: object({
      accounts: object({ max_featured_tags: integer }),
      statuses: object({
        max_characters: integer,
        max_media_attachments: integer,
        characters_reserved_per_url: integer,
      }),
      media_attachments: object({
        supported_mime_types: arrayOf(string),
        image_size_limit: integer,
        image_matrix_limit: integer,
        video_size_limit: integer,
        video_frame_rate_limit: integer,
        video_matrix_limit: integer,
      }),
      polls: object({
        max_options: integer,
        max_characters_per_option: integer,
        min_expiration: integer,
        max_expiration: integer,
      }),
    }),
    rules: arrayOf(entity("Rule")),
  },
  { thumbnail: nullable(uri), contact_account: nullable(entity("Account")) },
  "The server, as the version 1 API describes it",
);
