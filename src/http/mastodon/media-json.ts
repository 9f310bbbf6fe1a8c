// Attachments as Mastodon JSON for the media endpoints, with the status code that tells a
// client whether processing is done (206/202 while it is not).

import type { MediaAttachment } from "../../domain/media.ts";
import {
  type MediaAttachmentJson,
  serializeMediaAttachment,
} from "../../serialization/mastodon/media-attachment.ts";
import type { ServiceContext } from "../../services/context.ts";
import { urlContext } from "./account-json.ts";

export function renderMedia(ctx: ServiceContext, media: MediaAttachment): MediaAttachmentJson {
  return serializeMediaAttachment(media, urlContext(ctx));
}
