// Mastodon's MediaAttachment entity. Pure: file URLs come from the caller's UrlContext. While an
// upload is processing (or after it failed) there is no published file yet, so `url` is null, as
// Mastodon answers on POST /api/v2/media; a preview the client uploaded is shown from the start.

import type { MediaAttachment, MediaMeta } from "../../domain/media.ts";
import type { UrlContext } from "./account.ts";

export interface MediaAttachmentJson {
  id: string;
  type: MediaAttachment["type"];
  url: string | null;
  preview_url: string | null;
  remote_url: string | null;
  /** Mastodon still sends these two; Wren has neither remote previews nor short links. */
  preview_remote_url: null;
  text_url: null;
  meta: MediaMeta;
  description: string | null;
  blurhash: string | null;
}

function urlOf(media: MediaAttachment, urls: UrlContext): string | null {
  if (media.fileKey !== null && media.state === "ready") return urls.fileUrl(media.fileKey);
  // Remote media not (yet) copied here is linked where it lives.
  return media.remoteUrl;
}

function previewUrlOf(media: MediaAttachment, urls: UrlContext): string | null {
  if (media.customPreviewKey !== null) return urls.fileUrl(media.customPreviewKey);
  if (media.previewKey !== null && media.state === "ready") return urls.fileUrl(media.previewKey);
  // A remote image not copied here is its own preview (clients need one to show the grid).
  if (media.remoteUrl !== null && media.fileKey === null && media.type === "image") {
    return media.remoteUrl;
  }
  return null;
}

/** `meta` with the focal point the uploader chose (kept apart from what processing measured). */
function metaOf(media: MediaAttachment): MediaMeta {
  const meta: MediaMeta = { ...media.meta };
  if (media.focus !== null) meta.focus = { x: media.focus.x, y: media.focus.y };
  return meta;
}

export function serializeMediaAttachment(
  media: MediaAttachment,
  urls: UrlContext,
): MediaAttachmentJson {
  return {
    id: media.id,
    type: media.type,
    url: urlOf(media, urls),
    preview_url: previewUrlOf(media, urls),
    remote_url: media.remoteUrl,
    preview_remote_url: null,
    text_url: null,
    meta: metaOf(media),
    description: media.description,
    blurhash: media.blurhash,
  };
}
