// Account → Mastodon's Profile entity (GET/PATCH /api/v1/profile, Mastodon 4.6): the owner's
// editable values as typed (raw bio and field values, null images when unset). Wren has no
// image descriptions, hidden collections, profile tab choices or attribution domains yet: those
// show what Wren does (nothing hidden, every tab shown, no domains).

import type { Account } from "../../domain/account.ts";
import { type FieldJson, imageRefUrls, rawFields, type UrlContext } from "./account.ts";

export interface ProfileJson {
  id: string;
  display_name: string;
  note: string;
  fields: FieldJson[];
  avatar: string | null;
  avatar_static: string | null;
  avatar_description: string;
  header: string | null;
  header_static: string | null;
  header_description: string;
  locked: boolean;
  bot: boolean;
  hide_collections: boolean | null;
  discoverable: boolean | null;
  indexable: boolean;
  show_media: boolean;
  show_media_replies: boolean;
  show_featured: boolean;
  attribution_domains: string[];
}

export function serializeProfile(account: Account, urls: UrlContext): ProfileJson {
  const [avatar, avatarStatic] = account.avatar ? imageRefUrls(account.avatar, urls) : [null, null];
  const [header, headerStatic] = account.header ? imageRefUrls(account.header, urls) : [null, null];
  return {
    id: account.id,
    display_name: account.displayName,
    note: account.note,
    fields: rawFields(account),
    avatar,
    avatar_static: avatarStatic,
    avatar_description: "",
    header,
    header_static: headerStatic,
    header_description: "",
    locked: account.locked,
    bot: account.bot,
    hide_collections: false,
    discoverable: account.discoverable,
    indexable: account.indexable,
    show_media: true,
    show_media_replies: true,
    show_featured: true,
    attribution_domains: [],
  };
}
