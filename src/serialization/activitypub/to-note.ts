// StatusView → the ActivityPub object of a status: a Note, or a Question for a status with a
// poll, shaped as Mastodon publishes them (addressing by visibility, Mention/Hashtag/Emoji
// tags, Document attachments). Pure. The internal `deleted` flag and the typed source (`text`)
// never appear: a deleted status becomes a Tombstone.

import {
  Collection,
  type Document,
  Hashtag,
  LanguageString,
  Mention,
  Note,
  PUBLIC_COLLECTION,
  Question,
  Tombstone,
} from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { type Account, acctOf } from "../../domain/account.ts";
import type { MediaAttachment } from "../../domain/media.ts";
import type { Status } from "../../domain/status.ts";
import { contentTypeForKey } from "../../media/content-types.ts";
import type { PollView } from "../../views/poll-view.ts";
import type { StatusView } from "../../views/status-view.ts";
import { tagUrl } from "../mastodon/tag.ts";
import { toEmoji } from "./emoji.ts";
import { MastodonNote, MastodonQuestion, mediaDocument } from "./mastodon-extensions.ts";
import { type RepliesPage, toCountCollection, toRepliesCollection } from "./note-collections.ts";
import { noteQuoteValues } from "./quotes.ts";
import type { ApUrls } from "./urls.ts";

/** What a Note links to beyond its StatusView (the caller looks it up). */
export interface NoteLinks {
  /** The ActivityPub id of the status replied to, when it is known. */
  inReplyTo?: string | null;
  /** The first page of its listable replies; without it the Note names no `replies`. */
  replies?: RepliesPage;
}

export interface Addressing {
  tos: URL[];
  ccs: URL[];
}

/** The followers collection of an actor (the one its actor document names). */
export function followersUrlOf(account: Account): URL {
  return new URL(`${account.uri}/followers`);
}

/**
 * Mastodon's addressing: public → to Public, cc followers; unlisted → to followers, cc Public;
 * private → to followers; direct → the mentioned only. Mentioned accounts are always in cc
 * (in to for direct messages). `extraCc` (a boosted status's author) joins cc.
 */
export function addressingOf(
  visibility: Status["visibility"],
  author: Account,
  mentioned: readonly Account[],
  extraCc: readonly string[] = [],
): Addressing {
  const followers = followersUrlOf(author);
  const mentions = mentioned.flatMap((a) => urlOrNull(a.uri) ?? []);
  const extra = extraCc.flatMap((uri) => urlOrNull(uri) ?? []);
  let tos: URL[];
  let ccs: URL[];
  switch (visibility) {
    case "public":
      tos = [PUBLIC_COLLECTION];
      ccs = [followers, ...extra, ...mentions];
      break;
    case "unlisted":
      tos = [followers];
      ccs = [PUBLIC_COLLECTION, ...extra, ...mentions];
      break;
    case "private":
      tos = [followers];
      ccs = [...extra, ...mentions];
      break;
    case "direct":
      tos = [...mentions];
      ccs = [...extra];
      break;
  }
  return { tos: unique(tos), ccs: unique(ccs).filter((u) => !tos.some((t) => t.href === u.href)) };
}

function unique(urls: URL[]): URL[] {
  const seen = new Set<string>();
  return urls.filter((u) => {
    if (seen.has(u.href)) return false;
    seen.add(u.href);
    return true;
  });
}

const instant = (iso: string) => Temporal.Instant.from(iso);

/** `@user@host` for every account: peers need the host of local accounts too. */
function handleOf(account: Account, urls: ApUrls): string {
  return account.domain === null
    ? `@${account.username}@${new URL(urls.publicUrl).host}`
    : `@${acctOf(account)}`;
}

/** A stored URL as a URL; null for one that does not parse (a remote record's garbage). */
function urlOrNull(value: string | null): URL | null {
  return value !== null && URL.canParse(value) ? new URL(value) : null;
}

/** The content keyed by language; none for a language tag Intl does not accept. */
function languageString(html: string, language: string | null): LanguageString | null {
  if (!language) return null;
  try {
    return new LanguageString(html, language);
  } catch {
    return null;
  }
}

function toDocument(media: MediaAttachment, urls: ApUrls): Document | null {
  const fileKey = media.state === "ready" ? media.fileKey : null;
  // Still processing (or failed): there is no file to point a peer at yet.
  const url = urlOrNull(fileKey !== null ? urls.fileUrl(fileKey) : media.remoteUrl);
  if (url === null) return null;
  const mediaType = fileKey !== null ? contentTypeForKey(fileKey) : media.contentType;
  const original = media.meta?.original;
  const focus = media.focus ?? media.meta?.focus ?? null;
  return mediaDocument(
    {
      url,
      mediaType,
      name: media.description ?? null,
      width: typeof original?.width === "number" ? original.width : null,
      height: typeof original?.height === "number" ? original.height : null,
    },
    { blurhash: media.blurhash, focalPoint: focus ? [focus.x, focus.y] : null },
  );
}

/** A poll option as Mastodon publishes it: a Note named after the option, its votes as replies. */
function toOptions(poll: PollView): Note[] {
  return poll.poll.options.map(
    (option) =>
      new Note({
        name: option.title,
        replies: new Collection({ totalItems: option.votesCount }),
      }),
  );
}

function pollValues(poll: PollView) {
  const { expiresAt, closedAt } = poll.poll;
  const options = toOptions(poll);
  // A poll past its deadline is closed even before the expiry job has marked it.
  const closedIso = closedAt ?? (poll.expired ? expiresAt : null);
  return {
    ...(poll.poll.multiple ? { inclusiveOptions: options } : { exclusiveOptions: options }),
    endTime: expiresAt === null ? null : instant(expiresAt),
    closed: closedIso === null ? null : instant(closedIso),
    voters: poll.poll.votersCount,
  };
}

export function toNote(view: StatusView, urls: ApUrls, links: NoteLinks = {}): Note | Question {
  const { status } = view;
  const author = view.account.account;
  const { tos, ccs } = addressingOf(status.visibility, author, view.mentions);
  const byLanguage = languageString(status.contentHtml, status.language);
  const contents = byLanguage ? [status.contentHtml, byLanguage] : [status.contentHtml];
  const mentionTags = view.mentions.flatMap((account) => {
    const href = urlOrNull(account.uri);
    return href ? [new Mention({ href, name: handleOf(account, urls) })] : [];
  });
  const hashtags = status.tags.map(
    (name) => new Hashtag({ href: new URL(tagUrl(name, urls.publicUrl)), name: `#${name}` }),
  );
  const values = {
    id: new URL(status.uri),
    url: new URL(status.url),
    attribution: new URL(author.uri),
    published: instant(status.createdAt),
    updated: status.editedAt === null ? null : instant(status.editedAt),
    tos,
    ccs,
    contents,
    summary: status.spoilerText === "" ? null : status.spoilerText,
    sensitive: status.sensitive,
    replyTarget: urlOrNull(links.inReplyTo ?? null),
    tags: [...mentionTags, ...hashtags, ...view.emojis.map((emoji) => toEmoji(emoji, urls))],
    attachments: view.media.flatMap((media) => {
      const document = toDocument(media, urls);
      return document ? [document] : [];
    }),
    replies: links.replies ? toRepliesCollection(status.uri, links.replies) : null,
    likes: toCountCollection(status.uri, "likes", view.favouritesCount),
    shares: toCountCollection(status.uri, "shares", view.reblogsCount),
    ...noteQuoteValues(status, author),
  };
  if (view.poll) return new MastodonQuestion({ ...values, ...pollValues(view.poll) });
  return new MastodonNote(values);
}

/** What a deleted status answers with: its id, what it was, and when it went. */
export function toTombstone(status: Status): Tombstone {
  return new Tombstone({
    id: new URL(status.uri),
    formerType: status.pollId === null ? Note : Question,
    deleted: status.deletedAt === null ? null : instant(status.deletedAt),
  });
}
