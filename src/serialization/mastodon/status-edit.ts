// Mastodon's StatusEdit (one version in a status's history) and StatusSource (the typed text
// behind a status, for editing). Pure.

import type { MediaAttachment } from "../../domain/media.ts";
import type { StatusEdit } from "../../domain/status.ts";
import type { AccountJson, UrlContext } from "./account.ts";
import { type MediaAttachmentJson, serializeMediaAttachment } from "./media-attachment.ts";

export interface StatusEditJson {
  content: string;
  spoiler_text: string;
  sensitive: boolean;
  created_at: string;
  account: AccountJson;
  media_attachments: MediaAttachmentJson[];
  emojis: never[];
}

export interface StatusSourceJson {
  id: string;
  text: string;
  spoiler_text: string;
}

/**
 * `account` is the author's serialised account (the same for every version); `media` holds the
 * attachments of the status's versions by id (a version lists those of its mediaIds still there).
 */
export function serializeStatusEdit(
  edit: StatusEdit,
  account: AccountJson,
  media: ReadonlyMap<string, MediaAttachment>,
  urls: UrlContext,
): StatusEditJson {
  return {
    content: edit.contentHtml,
    spoiler_text: edit.spoilerText,
    sensitive: edit.sensitive,
    created_at: edit.createdAt,
    account,
    media_attachments: edit.mediaIds.flatMap((id) => {
      const m = media.get(id);
      return m ? [serializeMediaAttachment(m, urls)] : [];
    }),
    emojis: [],
  };
}

export function serializeStatusSource(source: {
  id: string;
  text: string;
  spoilerText: string;
}): StatusSourceJson {
  return { id: source.id, text: source.text, spoiler_text: source.spoilerText };
}
