/** MediaAttachment, from Mastodon's documentation (entities/MediaAttachment.md). */
import { integer, nullable, number, object, oneOf, string, uri } from "../json-schema.ts";

/** `meta.original` / `meta.small`: what is known of one rendition's size and timing. */
const MetaDetails = object(
  {},
  {
    width: nullable(integer),
    height: nullable(integer),
    aspect: nullable(number),
    duration: nullable(number),
    bitrate: nullable(integer),
    frame_rate: nullable(string),
  },
);

export const MediaAttachment = object(
  { id: string, type: oneOf("unknown", "image", "gifv", "video", "audio") },
  {
    url: nullable(uri),
    preview_url: nullable(uri),
    remote_url: nullable(uri),
    meta: nullable(
      object(
        {},
        {
          original: nullable(MetaDetails),
          small: nullable(MetaDetails),
          focus: nullable(object({}, { x: nullable(number), y: nullable(number) })),
        },
      ),
    ),
    description: nullable(string),
    blurhash: nullable(string),
  },
  "A file attached to a status",
);
