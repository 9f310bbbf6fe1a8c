// The status summaries of the json-file backend as columns (ADR 37): one row per status, each
// field in a typed array (ids and the numeric tails of uris as two 32-bit halves, authors, uri
// prefixes, tag sets and visibilities as indexes into append-only string tables, flags as bits),
// and an open-addressing id → row index. About 60 bytes a row where a frozen summary object with
// its strings, a Map entry and a uri index entry cost 350–700 (issue 21). Rows freed by removed
// statuses are reused; the indexes (status-indexes.ts) file rows, not ids.

import type { Visibility } from "../../domain/account.ts";
import { compareIds } from "../../domain/ids.ts";
import { formatDecimal, hashText, mix, NONE, ODD, parseDecimal, parsed } from "./id-codec.ts";
import { RowHash } from "./row-hash.ts";
import { NO_TAGS, type StatusSummary } from "./status-summary.ts";
import { StringTable } from "./string-table.ts";
import { sortYielding } from "./yielding-sort.ts";

const LOCAL = 1;
const DELETED = 2;
const HAS_MEDIA = 4;
/** The visibility's index in its table sits above the three flags of the byte. */
const VISIBILITY_SHIFT = 3;
const MAX_VISIBILITIES = 1 << (8 - VISIBILITY_SHIFT);
/** Tails this long are copied out of their uri: a V8 slice of it would keep the whole uri. */
const SLICE_MIN = 13;

export interface Columns {
  idHi: Uint32Array;
  idLo: Uint32Array;
  account: Int32Array;
  bits: Uint8Array;
  replyHi: Uint32Array;
  replyLo: Uint32Array;
  replyAccount: Int32Array;
  reblogHi: Uint32Array;
  reblogLo: Uint32Array;
  /** The uri's template (splitUri): the uri with its varying segment left out. */
  uriPrefix: Int32Array;
  /** The varying segment when a decimal; uriHi is NONE otherwise. */
  uriHi: Uint32Array;
  uriLo: Uint32Array;
  /** The varying segment when not a decimal (0 otherwise): most are, Mastodon's and ours. */
  uriText: (string | 0)[];
  tags: Int32Array;
  /** Changes with every write of the row: a reader can tell the row changed under it. */
  stamp: Uint32Array;
}

type TypedKey = Exclude<keyof Columns, "uriText">;
const TYPED: { [K in TypedKey]: new (n: number) => Columns[K] } = {
  idHi: Uint32Array,
  idLo: Uint32Array,
  account: Int32Array,
  bits: Uint8Array,
  replyHi: Uint32Array,
  replyLo: Uint32Array,
  replyAccount: Int32Array,
  reblogHi: Uint32Array,
  reblogLo: Uint32Array,
  uriPrefix: Int32Array,
  uriHi: Uint32Array,
  uriLo: Uint32Array,
  tags: Int32Array,
  stamp: Uint32Array,
};

/** Columns of `capacity` rows holding the first `used` rows of `from`. */
function columns(capacity: number, from?: Columns, used = 0): Columns {
  const made = { uriText: from ? from.uriText.slice(0, used) : [] } as unknown as Columns;
  for (const key of Object.keys(TYPED) as TypedKey[]) {
    const column = new TYPED[key](capacity);
    if (from) column.set(from[key].subarray(0, used) as never);
    (made as unknown as Record<TypedKey, unknown>)[key] = column;
  }
  return made;
}

/** The append-only string tables a table shares with its copies. */
interface Strings {
  accounts: StringTable;
  prefixes: StringTable;
  /** Ids that are no canonical decimal (ODD high half, the index as the low one). */
  odd: StringTable;
  visibilities: StringTable;
  /** Tag sets by a key of their tags; tagLists holds each set, index 0 the empty one. */
  tagSets: StringTable;
  tagLists: (readonly string[])[];
}

/** An id used as a bound of a window (max_id…): its halves, or hi = ODD to compare as text. */
export interface IdKey {
  readonly hi: number;
  readonly lo: number;
  readonly text: string;
}

/** Read access to the rows; a copy (see StatusTable.copy) is one of these. */
export class TableColumns {
  protected c: Columns;
  /** Rows in use or free: every row below it was written once. */
  protected end: number;
  protected readonly strings: Strings;

  protected constructor(c: Columns, end: number, strings: Strings) {
    this.c = c;
    this.end = end;
    this.strings = strings;
  }

  /** The columns themselves, for comparators that run many times (do not keep: they grow). */
  get columns(): Readonly<Columns> {
    return this.c;
  }

  has(row: number): boolean {
    return row >= 0 && row < this.end && this.c.idHi[row] !== NONE;
  }

  idOf(row: number): string {
    return this.#text(this.c.idHi[row] as number, this.c.idLo[row] as number) as string;
  }

  accountOf(row: number): string {
    return this.strings.accounts.at(this.c.account[row] as number);
  }

  /** The author as an index (same author, same index), for comparisons without strings. */
  accountIndexOf(row: number): number {
    return this.c.account[row] as number;
  }

  /** The index accountIndexOf gives the account's rows, or -1 when it has none. */
  accountIndex(accountId: string): number {
    return this.strings.accounts.find(accountId);
  }

  isLocal(row: number): boolean {
    return ((this.c.bits[row] as number) & LOCAL) !== 0;
  }

  isDeleted(row: number): boolean {
    return ((this.c.bits[row] as number) & DELETED) !== 0;
  }

  hasMedia(row: number): boolean {
    return ((this.c.bits[row] as number) & HAS_MEDIA) !== 0;
  }

  visibilityOf(row: number): Visibility {
    const index = (this.c.bits[row] as number) >> VISIBILITY_SHIFT;
    return this.strings.visibilities.at(index) as Visibility;
  }

  isReply(row: number): boolean {
    return this.c.replyHi[row] !== NONE;
  }

  /** Mastodon leaves these out of public timelines; an author's replies to themselves stay. */
  isReplyToOthers(row: number): boolean {
    return this.c.replyHi[row] !== NONE && this.c.replyAccount[row] !== this.c.account[row];
  }

  isReblog(row: number): boolean {
    return this.c.reblogHi[row] !== NONE;
  }

  tagsOf(row: number): readonly string[] {
    return this.strings.tagLists[this.c.tags[row] as number] as readonly string[];
  }

  uriOf(row: number): string {
    const hi = this.c.uriHi[row] as number;
    const segment =
      hi === NONE
        ? (this.c.uriText[row] as string)
        : formatDecimal(hi, this.c.uriLo[row] as number);
    const template = this.strings.prefixes.at(this.c.uriPrefix[row] as number);
    const at = template.indexOf(HOLE);
    return template.slice(0, at) + segment + template.slice(at + 1);
  }

  sameUri(a: number, b: number): boolean {
    const c = this.c;
    return (
      c.uriPrefix[a] === c.uriPrefix[b] &&
      c.uriHi[a] === c.uriHi[b] &&
      c.uriLo[a] === c.uriLo[b] &&
      c.uriText[a] === c.uriText[b]
    );
  }

  stampOf(row: number): number {
    return this.c.stamp[row] as number;
  }

  /** The whole summary (allocates: for writes, snapshots and tests, not per timeline entry). */
  summary(row: number): StatusSummary {
    const c = this.c;
    const replyAccount = c.replyAccount[row] as number;
    return {
      id: this.idOf(row),
      accountId: this.accountOf(row),
      uri: this.uriOf(row),
      visibility: this.visibilityOf(row),
      local: this.isLocal(row),
      deleted: this.isDeleted(row),
      hasMedia: this.hasMedia(row),
      inReplyToId: this.#text(c.replyHi[row] as number, c.replyLo[row] as number),
      inReplyToAccountId: replyAccount < 0 ? null : this.strings.accounts.at(replyAccount),
      reblogOfId: this.#text(c.reblogHi[row] as number, c.reblogLo[row] as number),
      tags: this.tagsOf(row),
    };
  }

  /** Rows by id, as compareIds orders the ids. */
  compare(a: number, b: number): number {
    const { idHi, idLo } = this.c;
    const ha = idHi[a] as number;
    const hb = idHi[b] as number;
    if (ha < ODD && hb < ODD)
      return ha !== hb ? ha - hb : (idLo[a] as number) - (idLo[b] as number);
    return compareIds(this.idOf(a), this.idOf(b));
  }

  compareToId(row: number, key: IdKey): number {
    const hi = this.c.idHi[row] as number;
    if (hi < ODD && key.hi < ODD) {
      return hi !== key.hi ? hi - key.hi : (this.c.idLo[row] as number) - key.lo;
    }
    return compareIds(this.idOf(row), key.text);
  }

  /** Every live row, in row order. */
  *rows(): Generator<number> {
    for (let row = 0; row < this.end; row++) if (this.c.idHi[row] !== NONE) yield row;
  }

  /** Every summary in id order (sorted in slices between other work). */
  async inIdOrder(): Promise<Iterable<StatusSummary>> {
    const rows = await sortYielding([...this.rows()], (a, b) => this.compare(a, b));
    const table = this;
    return (function* () {
      for (const row of rows) yield table.summary(row);
    })();
  }

  #text(hi: number, lo: number): string | null {
    if (hi === NONE) return null;
    return hi < ODD ? formatDecimal(hi, lo) : this.strings.odd.at(lo);
  }
}

/** The live table: rows written, removed and found by id. */
export class StatusTable extends TableColumns {
  readonly #ids: RowHash;
  readonly #free: number[] = [];
  #live = 0;
  #stamps = 0;

  constructor() {
    const strings: Strings = {
      accounts: new StringTable(),
      prefixes: new StringTable(),
      odd: new StringTable(),
      visibilities: new StringTable(),
      tagSets: new StringTable(),
      tagLists: [NO_TAGS],
    };
    strings.tagSets.intern("");
    super(columns(1024), 0, strings);
    this.#ids = new RowHash((row) => mix(this.c.idHi[row] as number, this.c.idLo[row] as number));
  }

  get size(): number {
    return this.#live;
  }

  /** The row of the status, or -1. */
  rowOf(id: string): number {
    if (!this.#encode(id, false)) return -1;
    const { hi, lo } = parsed;
    const { idHi, idLo } = this.c;
    return this.#ids.find(mix(hi, lo), (row) => idHi[row] === hi && idLo[row] === lo);
  }

  /** A window bound; never grows the tables (it comes from a client). */
  key(id: string): IdKey {
    if (parseDecimal(id)) return { hi: parsed.hi, lo: parsed.lo, text: id };
    return { hi: ODD, lo: 0, text: id };
  }

  /**
   * The halves of an id already in the tables (a reply's parent, a reblog's original), for
   * finding its group; undefined when no row can name it.
   */
  groupKey(id: string): { hi: number; lo: number } | undefined {
    return this.#encode(id, false) ? { hi: parsed.hi, lo: parsed.lo } : undefined;
  }

  /**
   * Writes the summary into `row` (the status's row: same id), or into a new row when -1;
   * returns the row.
   */
  write(row: number, s: StatusSummary): number {
    if (row < 0) row = this.#newRow(s.id);
    const c = this.c;
    const strings = this.strings;
    c.account[row] = strings.accounts.intern(s.accountId);
    const visibility = strings.visibilities.intern(s.visibility);
    if (visibility >= MAX_VISIBILITIES) throw new Error(`too many visibilities: ${s.visibility}`);
    c.bits[row] =
      (s.local ? LOCAL : 0) |
      (s.deleted ? DELETED : 0) |
      (s.hasMedia ? HAS_MEDIA : 0) |
      (visibility << VISIBILITY_SHIFT);
    this.#setId(c.replyHi, c.replyLo, row, s.inReplyToId);
    c.replyAccount[row] =
      s.inReplyToAccountId === null ? -1 : strings.accounts.intern(s.inReplyToAccountId);
    this.#setId(c.reblogHi, c.reblogLo, row, s.reblogOfId);
    this.#setUri(row, s.uri);
    c.tags[row] = this.#tagSet(s.tags);
    c.stamp[row] = ++this.#stamps;
    return row;
  }

  remove(row: number): void {
    const c = this.c;
    this.#ids.delete(row, mix(c.idHi[row] as number, c.idLo[row] as number));
    c.idHi[row] = NONE;
    c.uriText[row] = 0;
    this.#free.push(row);
    this.#live--;
  }

  /** A frozen copy of the rows (a snapshot is written from it while writes go on). */
  copy(): TableColumns {
    return new FrozenColumns(columns(this.end, this.c, this.end), this.end, this.strings);
  }

  /** The hash of a uri as its row would hash it; undefined when no row can hold it. */
  uriHash(uri: string): { hash: number; holds: (row: number) => boolean } | undefined {
    const [template, tail] = splitUri(uri);
    const prefix = this.strings.prefixes.find(template);
    if (prefix < 0) return undefined;
    const c = this.c;
    if (parseDecimal(tail)) {
      const { hi, lo } = parsed;
      return {
        hash: mix(prefix, mix(hi, lo)),
        holds: (row) => c.uriPrefix[row] === prefix && c.uriHi[row] === hi && c.uriLo[row] === lo,
      };
    }
    return {
      hash: mix(prefix, hashText(tail)),
      holds: (row) =>
        c.uriPrefix[row] === prefix && c.uriHi[row] === NONE && c.uriText[row] === tail,
    };
  }

  /** The hash of the row's uri, as uriHash gives it for the uri. */
  uriHashOf(row: number): number {
    const c = this.c;
    const hi = c.uriHi[row] as number;
    const tail = hi === NONE ? hashText(c.uriText[row] as string) : mix(hi, c.uriLo[row] as number);
    return mix(c.uriPrefix[row] as number, tail);
  }

  #newRow(id: string): number {
    this.#encode(id, true);
    const { hi, lo } = parsed;
    let row = this.#free.pop();
    if (row === undefined) {
      if (this.end === this.c.idHi.length) {
        // 1.5×: at a million rows, doubling would leave up to 60 MB unused.
        this.c = columns(Math.ceil(this.end * 1.5), this.c, this.end);
      }
      row = this.end++;
    }
    this.c.idHi[row] = hi;
    this.c.idLo[row] = lo;
    const { idHi, idLo } = this.c;
    this.#ids.set(row, mix(hi, lo), (r) => idHi[r] === hi && idLo[r] === lo);
    this.#live++;
    return row;
  }

  /** Sets `parsed` to the id's halves; false when it is odd and not known (and not to add). */
  #encode(id: string, add: boolean): boolean {
    if (parseDecimal(id)) return true;
    const index = add ? this.strings.odd.intern(id) : this.strings.odd.find(id);
    if (index < 0) return false;
    parsed.hi = ODD;
    parsed.lo = index;
    return true;
  }

  #setId(hiColumn: Uint32Array, loColumn: Uint32Array, row: number, id: string | null): void {
    if (id === null) {
      hiColumn[row] = NONE;
      loColumn[row] = 0;
      return;
    }
    this.#encode(id, true);
    hiColumn[row] = parsed.hi;
    loColumn[row] = parsed.lo;
  }

  #setUri(row: number, uri: string): void {
    const c = this.c;
    const [template, tail] = splitUri(uri);
    let index = this.strings.prefixes.find(template);
    if (index < 0) index = this.strings.prefixes.intern(flat(template));
    c.uriPrefix[row] = index;
    if (parseDecimal(tail)) {
      c.uriHi[row] = parsed.hi;
      c.uriLo[row] = parsed.lo;
      c.uriText[row] = 0;
    } else {
      c.uriHi[row] = NONE;
      c.uriLo[row] = 0;
      c.uriText[row] = tail.length >= SLICE_MIN ? flat(tail) : tail;
    }
  }

  #tagSet(tags: readonly string[]): number {
    if (tags.length === 0) return 0;
    const key = `\u0001${tags.join("\u0000")}`;
    const known = this.strings.tagSets.find(key);
    if (known >= 0) return known;
    this.strings.tagLists.push(Object.freeze(tags.map(flat)));
    return this.strings.tagSets.intern(key);
  }
}

class FrozenColumns extends TableColumns {
  constructor(c: Columns, end: number, strings: Strings) {
    super(c, end, strings);
  }
}

/** Stands for the varying segment in a uri template (no uri holds it). */
const HOLE = "\u0000";

/**
 * A uri as a template shared by many statuses and the segment that varies: the last path
 * segment holding a digit (`…/statuses/{id}`, `…/statuses/{id}/activity`, `…/notes/{aid}`,
 * `…/objects/{uuid}`), else the last segment. The template holds HOLE in its place.
 */
function splitUri(uri: string): [template: string, segment: string] {
  const authority = uri.indexOf("//");
  const path = authority < 0 ? 0 : uri.indexOf("/", authority + 2) + 1;
  let chosen = -1;
  let chosenEnd = -1;
  if (path > 0) {
    for (let end = uri.length; end >= path; ) {
      const start = uri.lastIndexOf("/", end - 1) + 1;
      if (start < path) break;
      if (chosen < 0 && end > start) {
        chosen = start;
        chosenEnd = end;
      }
      if (hasDigit(uri, start, end)) {
        chosen = start;
        chosenEnd = end;
        break;
      }
      end = start - 1;
    }
  }
  if (chosen < 0) return [uri + HOLE, ""];
  return [uri.slice(0, chosen) + HOLE + uri.slice(chosenEnd), uri.slice(chosen, chosenEnd)];
}

function hasDigit(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) return true;
  }
  return false;
}

/** A copy of the string that holds none of a larger one (V8 shares slices' parents). */
function flat(text: string): string {
  return text.length < SLICE_MIN ? text : Buffer.from(text, "utf8").toString("utf8");
}
