// StatusView → Mastodon Status JSON *text*, for the hot read routes (timelines, a status, an
// account's statuses). Serializing a timeline page (~35 kB) was the largest single cost of a
// read, and almost all of it repeats: a status's content, attachments, mentions and tags change
// only when its record does. So the unchanging part of each status, and each author's account,
// is kept as JSON text and reused while its inputs are the very same objects (stored records
// are frozen and replaced on change, so identity is a version); counters, viewer flags and polls
// are written fresh every time. The text parses to exactly what serializeStatus builds. The
// memos are bounded (the most recently rendered statuses and accounts), not one per record: a
// crawl through every status must not double the memory the records take.

import { type Account, isSensitized } from "../../domain/account.ts";
import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import { LruCache } from "../../domain/lru-cache.ts";
import type { MediaAttachment } from "../../domain/media.ts";
import type { Status } from "../../domain/status.ts";
import type { AccountView } from "../../views/account-view.ts";
import type { StatusView } from "../../views/status-view.ts";
import { serializeAccount, type UrlContext } from "./account.ts";
import { serializeFilterResult } from "./filter.ts";
import { serializePoll } from "./poll.ts";
import { serializeQuote } from "./quote.ts";
import { serializeStatusContent } from "./status.ts";

interface ContentMemo {
  media: readonly MediaAttachment[];
  mentions: readonly Account[];
  emojis: readonly CustomEmoji[];
  appName: string | null;
  appWebsite: string | null;
  /** The author was sensitized when the text was made (`sensitive` depends on it). */
  sensitized: boolean;
  /** The card shown, by URL and fetch time: a card is read anew for every batch. */
  cardUrl: string | null;
  cardFetchedAt: string | null;
  /** The content fields as a JSON object's text without its closing brace. */
  open: string;
}

interface AccountMemo {
  statusesCount: number;
  followersCount: number;
  followingCount: number;
  lastStatusAt: string | null;
  role: AccountView["role"];
  emojis: readonly CustomEmoji[];
  text: string;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * serializeStatusCounters's object as text without its opening brace, written field by field in
 * its order: building and stringifying the object was a tenth of a page's rendering.
 */
function countersText(view: StatusView): string {
  const approval = view.quoteApproval;
  let text = `"reblogs_count":${view.reblogsCount},"favourites_count":${view.favouritesCount},"replies_count":${view.repliesCount},"quotes_count":${view.quotesCount},"quote_approval":{"automatic":${stringList(approval.automatic)},"manual":${stringList(approval.manual)},"current_user":${JSON.stringify(approval.currentUser)}}`;
  const flags = view.viewer;
  if (!flags) return `${text}}`;
  text += `,"favourited":${flags.favourited},"reblogged":${flags.reblogged},"muted":${flags.muted},"bookmarked":${flags.bookmarked}`;
  if (flags.pinned !== undefined) text += `,"pinned":${flags.pinned}`;
  const filtered =
    view.filtered.length === 0 ? "[]" : JSON.stringify(view.filtered.map(serializeFilterResult));
  return `${text},"filtered":${filtered}}`;
}

/** A list of strings as JSON; the one-item lists of quote policies without an array's walk. */
function stringList(items: readonly string[]): string {
  if (items.length === 0) return "[]";
  return items.length === 1 ? `[${JSON.stringify(items[0])}]` : JSON.stringify(items);
}

/** About a few pages of every active timeline; each entry holds a status's JSON text. */
const STATUS_MEMO_LIMIT = 20_000;
const ACCOUNT_MEMO_LIMIT = 5_000;

/** One per URL context (an app instance). */
export class StatusTextRenderer {
  readonly #urls: UrlContext;
  readonly #content: LruCache<Status, ContentMemo>;
  readonly #accounts: LruCache<Account, AccountMemo>;

  constructor(
    urls: UrlContext,
    limits: { statuses: number; accounts: number } = {
      statuses: STATUS_MEMO_LIMIT,
      accounts: ACCOUNT_MEMO_LIMIT,
    },
  ) {
    this.#urls = urls;
    this.#content = new LruCache(limits.statuses);
    this.#accounts = new LruCache(limits.accounts);
  }

  /** A JSON array of the statuses, in order. */
  statuses(views: readonly StatusView[]): string {
    let text = "[";
    for (let i = 0; i < views.length; i++) {
      if (i > 0) text += ",";
      text += this.status(views[i] as StatusView);
    }
    return `${text}]`;
  }

  status(view: StatusView): string {
    const reblog = view.reblog ? this.status(view.reblog) : "null";
    const poll = view.poll ? JSON.stringify(serializePoll(view.poll, this.#urls)) : "null";
    // The quoted status is written as text too; the quote's own fields are small.
    let quote = "null";
    if (view.quote?.quoted) {
      const quoted = this.status(view.quote.quoted);
      quote = `{"state":${JSON.stringify(view.quote.state)},"quoted_status":${quoted}}`;
    } else if (view.quote) {
      quote = JSON.stringify(serializeQuote(view.quote, () => null));
    }
    return `${this.#contentOpen(view)},"account":${this.account(view.account)},"reblog":${reblog},"poll":${poll},"quote":${quote},${countersText(view)}`;
  }

  account(view: AccountView): string {
    const memo = this.#accounts.get(view.account);
    if (
      memo &&
      memo.statusesCount === view.statusesCount &&
      memo.followersCount === view.followersCount &&
      memo.followingCount === view.followingCount &&
      memo.lastStatusAt === view.lastStatusAt &&
      memo.role === view.role &&
      sameItems(memo.emojis, view.emojis)
    ) {
      return memo.text;
    }
    const text = JSON.stringify(serializeAccount(view, this.#urls));
    this.#accounts.set(view.account, {
      statusesCount: view.statusesCount,
      followersCount: view.followersCount,
      followingCount: view.followingCount,
      lastStatusAt: view.lastStatusAt,
      role: view.role,
      emojis: view.emojis,
      text,
    });
    return text;
  }

  #contentOpen(view: StatusView): string {
    const memo = this.#content.get(view.status);
    const appName = view.application?.name ?? null;
    const appWebsite = view.application?.website ?? null;
    if (
      memo &&
      memo.appName === appName &&
      memo.appWebsite === appWebsite &&
      memo.sensitized === isSensitized(view.account.account) &&
      sameItems(memo.media, view.media) &&
      sameItems(memo.mentions, view.mentions) &&
      sameItems(memo.emojis, view.emojis) &&
      memo.cardFetchedAt === (view.card?.fetchedAt ?? null) &&
      memo.cardUrl === (view.card?.url ?? null)
    ) {
      return memo.open;
    }
    const open = JSON.stringify(serializeStatusContent(view, this.#urls)).slice(0, -1);
    this.#content.set(view.status, {
      media: view.media,
      mentions: view.mentions,
      emojis: view.emojis,
      cardUrl: view.card?.url ?? null,
      cardFetchedAt: view.card?.fetchedAt ?? null,
      appName,
      appWebsite,
      sensitized: isSensitized(view.account.account),
      open,
    });
    return open;
  }
}
