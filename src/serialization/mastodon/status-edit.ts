// Mastodon's StatusEdit (one version in a status's history) and StatusSource (the typed text
// behind a status, for editing). Pure.

import type { StatusEdit } from "../../domain/status.ts";
import type { AccountJson } from "./account.ts";

export interface StatusEditJson {
  content: string;
  spoiler_text: string;
  sensitive: boolean;
  created_at: string;
  account: AccountJson;
  media_attachments: unknown[];
  emojis: never[];
}

export interface StatusSourceJson {
  id: string;
  text: string;
  spoiler_text: string;
}

/** `account` is the author's serialised account (the same for every version). */
export function serializeStatusEdit(edit: StatusEdit, account: AccountJson): StatusEditJson {
  return {
    content: edit.contentHtml,
    spoiler_text: edit.spoilerText,
    sensitive: edit.sensitive,
    created_at: edit.createdAt,
    account,
    // Attachments come with the media store; no version can have any yet.
    media_attachments: [],
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
