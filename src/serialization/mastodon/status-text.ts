// StatusView → Mastodon Status JSON *text*, for the hot read routes (timelines, a status, an
// account's statuses). Serializing a timeline page (~35 kB) was the largest single cost of a
// read, and almost all of it repeats: a status's content, attachments, mentions and tags change
// only when its record does. So the unchanging part of each status, and each author's account,
// is kept as JSON text and reused while its inputs are the very same objects (stored records
// are frozen and replaced on change, so identity is a version); counters, viewer flags and polls
// are written fresh every time. The text parses to exactly what serializeStatus builds. The
// memos are bounded (the most recently rendered statuses and accounts), not one per record: a
// crawl through every status must not double the memory the records take.
//
// A timeline page is also written straight to bytes (`statusesBytes`): the kept parts, which are
// the same for every viewer, are kept encoded beside their text, and only what is written fresh
// (counters, the viewer's flags, polls, quotes' states, filter results) is encoded per request, into
// one buffer. Encoding the page's whole text at the end was a tenth of a signed-in page's CPU.
// Both forms are written by the same walk (#write), so they cannot differ.

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
  open: KeptText;
}

/** A kept piece of JSON text, and the same encoded once it has been written as bytes. */
interface KeptText {
  text: string;
  bytes?: Buffer;
}

/** Where a walk writes: kept pieces and fresh text, in order. */
interface Sink {
  kept(piece: KeptText): void;
  text(text: string): void;
}

class TextSink implements Sink {
  out = "";
  kept(piece: KeptText): void {
    this.out += piece.text;
  }
  text(text: string): void {
    this.out += text;
  }
}

/**
 * Where pages are assembled before their exact-size copy is made: one per process, grown to the
 * largest page's bound, only used within one synchronous `bytes()` call (nothing else can run
 * meanwhile, so no two pages share it). Pages larger than SCRATCH_LIMIT are assembled in a
 * buffer of their own rather than grow it further.
 */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);
const SCRATCH_LIMIT = 1024 * 1024;

/**
 * Gathers kept bytes and the fresh text between them (joined, so it is encoded in a few calls),
 * then copies them into a buffer sized by an upper bound (UTF-8 takes at most 3 bytes per UTF-16
 * unit), which spares measuring each text's encoded length first; the answer is an exact-size
 * copy of what was written. Every page allocates one buffer outside the JavaScript heap, whose
 * bytes V8 counts towards its next collections; a buffer of the bound was a quarter larger than
 * the page (more with filter results and polls), and allocating it was a larger share of writing
 * a page than copying the page once more (docs/PERFORMANCE.md, "Reads, round seven"). Kept answers
 * (http/middleware/kept-answers.ts) also hold the page and are weighed by the memory behind it.
 */
class BytesSink implements Sink {
  readonly #parts: (Buffer | string)[] = [];
  #pending = "";
  #bound = 0;
  kept(piece: KeptText): void {
    this.#flush();
    piece.bytes ??= Buffer.from(piece.text);
    this.#parts.push(piece.bytes);
    this.#bound += piece.bytes.length;
  }
  text(text: string): void {
    this.#pending += text;
  }
  #flush(): void {
    if (this.#pending === "") return;
    this.#parts.push(this.#pending);
    this.#bound += this.#pending.length * 3;
    this.#pending = "";
  }
  bytes(): Buffer<ArrayBuffer> {
    this.#flush();
    if (this.#bound > scratch.length && this.#bound <= SCRATCH_LIMIT) {
      scratch = Buffer.allocUnsafeSlow(Math.max(this.#bound, scratch.length * 2));
    }
    const into = this.#bound <= scratch.length ? scratch : Buffer.allocUnsafeSlow(this.#bound);
    let offset = 0;
    for (const part of this.#parts) {
      if (typeof part === "string") offset += into.write(part, offset);
      else {
        into.set(part, offset);
        offset += part.length;
      }
    }
    const out = Buffer.allocUnsafeSlow(offset);
    out.set(into.subarray(0, offset));
    return out;
  }
}

interface AccountMemo {
  statusesCount: number;
  followersCount: number;
  followingCount: number;
  lastStatusAt: string | null;
  role: AccountView["role"];
  emojis: readonly CustomEmoji[];
  text: string;
  /** The text as a status writes it: `,"account":<text>,"reblog":`. */
  inStatus: KeptText;
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
    const sink = new TextSink();
    this.#writeArray(views, sink);
    return sink.out;
  }

  /** `statuses` encoded as UTF-8: the very same bytes, from kept encoded pieces. */
  statusesBytes(views: readonly StatusView[]): Buffer<ArrayBuffer> {
    const sink = new BytesSink();
    this.#writeArray(views, sink);
    return sink.bytes();
  }

  status(view: StatusView): string {
    const sink = new TextSink();
    this.#write(view, sink);
    return sink.out;
  }

  account(view: AccountView): string {
    return this.#account(view).text;
  }

  #writeArray(views: readonly StatusView[], sink: Sink): void {
    sink.text("[");
    for (let i = 0; i < views.length; i++) {
      if (i > 0) sink.text(",");
      this.#write(views[i] as StatusView, sink);
    }
    sink.text("]");
  }

  #write(view: StatusView, sink: Sink): void {
    sink.kept(this.#contentOpen(view));
    sink.kept(this.#account(view.account).inStatus);
    if (view.reblog) this.#write(view.reblog, sink);
    else sink.text("null");
    const poll = view.poll ? JSON.stringify(serializePoll(view.poll, this.#urls)) : "null";
    // The quoted status is written as a status too; the quote's own fields are small.
    if (view.quote?.quoted) {
      sink.text(
        `,"poll":${poll},"quote":{"state":${JSON.stringify(view.quote.state)},"quoted_status":`,
      );
      this.#write(view.quote.quoted, sink);
      sink.text(`},${countersText(view)}`);
      return;
    }
    const quote = view.quote ? JSON.stringify(serializeQuote(view.quote, () => null)) : "null";
    sink.text(`,"poll":${poll},"quote":${quote},${countersText(view)}`);
  }

  #account(view: AccountView): AccountMemo {
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
      return memo;
    }
    const text = JSON.stringify(serializeAccount(view, this.#urls));
    const made: AccountMemo = {
      statusesCount: view.statusesCount,
      followersCount: view.followersCount,
      followingCount: view.followingCount,
      lastStatusAt: view.lastStatusAt,
      role: view.role,
      emojis: view.emojis,
      text,
      inStatus: { text: `,"account":${text},"reblog":` },
    };
    this.#accounts.set(view.account, made);
    return made;
  }

  #contentOpen(view: StatusView): KeptText {
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
    const open = { text: JSON.stringify(serializeStatusContent(view, this.#urls)).slice(0, -1) };
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
