// AccountView → Mastodon's Account entity, and the CredentialAccount the owner sees (with
// `source` and `role`). Pure: URLs of hosted images come from the `urls` the caller passes.

import { type Account, acctOf, type ImageRef, isSilenced } from "../../domain/account.ts";
import type { AccountView, CredentialAccountView } from "../../views/account-view.ts";
import { type CustomEmojiJson, serializeCustomEmojis } from "./custom-emoji.ts";
import {
  type AccountRoleJson,
  type RoleJson,
  serializeAccountRoles,
  serializeRole,
} from "./role.ts";

/** How to turn stored references into public URLs. */
export interface UrlContext {
  /** Origin of the instance, e.g. `https://social.example`. */
  publicUrl: string;
  /** The public URL of a file-host key. */
  fileUrl(key: string): string;
}

export interface FieldJson {
  name: string;
  value: string;
  verified_at: string | null;
}

export interface AccountJson {
  id: string;
  username: string;
  acct: string;
  display_name: string;
  locked: boolean;
  bot: boolean;
  discoverable: boolean;
  indexable: boolean;
  group: boolean;
  created_at: string;
  note: string;
  url: string;
  uri: string;
  avatar: string;
  avatar_static: string;
  header: string;
  header_static: string;
  followers_count: number;
  following_count: number;
  statuses_count: number;
  last_status_at: string | null;
  hide_collections: boolean;
  noindex?: boolean;
  emojis: CustomEmojiJson[];
  roles: AccountRoleJson[];
  fields: FieldJson[];
  /** The account this one moved to; only on moved accounts (never nested further). */
  moved?: AccountJson;
  /** Only on suspended accounts (Mastodon's `attribute :suspended, if: :suspended?`). */
  suspended?: true;
  /** Only on accounts a moderator limited (silenced). */
  limited?: true;
}

export interface CredentialAccountJson extends AccountJson {
  source: {
    privacy: string;
    sensitive: boolean;
    quote_policy: string;
    language: string | null;
    note: string;
    fields: FieldJson[];
    follow_requests_count: number;
    hide_collections: boolean;
    discoverable: boolean;
    indexable: boolean;
    attribution_domains: string[];
  };
  role: RoleJson;
}

export const MISSING_AVATAR = "/avatars/original/missing.png";
export const MISSING_HEADER = "/headers/original/missing.png";

/** The profile fields as their owner typed them (the editable source, not the HTML). */
export function rawFields(account: Account): FieldJson[] {
  return account.fields.map((f) => ({ name: f.name, value: f.value, verified_at: f.verifiedAt }));
}

/** The image's URL and its static variant's. */
export function imageRefUrls(ref: ImageRef, urls: UrlContext): [string, string] {
  if (ref.kind === "remote") return [ref.url, ref.staticUrl];
  return [urls.fileUrl(ref.key), urls.fileUrl(ref.staticKey)];
}

function imageUrls(ref: ImageRef | null, missing: string, urls: UrlContext): [string, string] {
  if (ref === null) {
    const url = `${urls.publicUrl}${missing}`;
    return [url, url];
  }
  return imageRefUrls(ref, urls);
}

/** Mastodon shows only the day an account was made: midnight UTC of that date. */
function midnight(iso: string): string {
  return `${iso.slice(0, 10)}T00:00:00.000Z`;
}

export function serializeAccount(view: AccountView, urls: UrlContext): AccountJson {
  const { account } = view;
  // A suspended account is shown as Mastodon's REST::AccountSerializer shows it: its name and
  // counters, with the profile it wrote emptied (no name, bio, fields, emojis, pictures), so a
  // client can say it is suspended instead of failing on a missing account.
  const gone = account.suspended === true;
  const [avatar, avatarStatic] = imageUrls(gone ? null : account.avatar, MISSING_AVATAR, urls);
  const [header, headerStatic] = imageUrls(gone ? null : account.header, MISSING_HEADER, urls);
  const local = account.domain === null;
  return {
    id: account.id,
    username: account.username,
    acct: acctOf(account),
    display_name: gone ? "" : account.displayName,
    locked: gone ? false : account.locked,
    bot: gone ? false : account.bot,
    discoverable: gone ? false : account.discoverable,
    indexable: gone ? false : account.indexable,
    group: account.group,
    created_at: midnight(account.createdAt),
    note: gone ? "" : account.noteHtml,
    url: account.url,
    uri: account.uri,
    avatar,
    avatar_static: avatarStatic,
    header,
    header_static: headerStatic,
    followers_count: view.followersCount,
    following_count: view.followingCount,
    statuses_count: view.statusesCount,
    last_status_at: view.lastStatusAt === null ? null : view.lastStatusAt.slice(0, 10),
    hide_collections: false,
    // Mastodon sends noindex for its own users only (search engines' opt-out).
    ...(local ? { noindex: false } : {}),
    emojis: gone ? [] : serializeCustomEmojis(view.emojis, urls),
    roles: serializeAccountRoles(view.role),
    fields: gone
      ? []
      : account.fields.map((f) => ({
          name: f.name,
          value: f.valueHtml,
          verified_at: f.verifiedAt,
        })),
    ...(view.moved && !gone ? { moved: serializeAccount(view.moved, urls) } : {}),
    ...(gone ? { suspended: true as const } : {}),
    ...(isSilenced(account) ? { limited: true as const } : {}),
  };
}

export function serializeAccounts(views: readonly AccountView[], urls: UrlContext): AccountJson[] {
  return views.map((view) => serializeAccount(view, urls));
}

export function serializeCredentialAccount(
  view: CredentialAccountView,
  urls: UrlContext,
): CredentialAccountJson {
  const { account, user } = view;
  return {
    ...serializeAccount(view, urls),
    source: {
      privacy: user.defaultVisibility,
      sensitive: user.defaultSensitive,
      language: user.defaultLanguage,
      quote_policy: user.defaultQuotePolicy ?? "public",
      note: account.note,
      fields: rawFields(account),
      follow_requests_count: view.followRequestsCount,
      hide_collections: false,
      discoverable: account.discoverable,
      indexable: account.indexable,
      attribution_domains: [],
    },
    role: serializeRole(user.role),
  };
}
