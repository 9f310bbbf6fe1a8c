// The journal of status files changed since the last snapshot (ADR 11): one line per status
// write, appended and fdatasynced BEFORE the status file is renamed into place. A start with a
// usable snapshot then reads only the files the journals name, not every status file: whatever a
// crash interrupted, every file that may differ from the snapshot is listed.
//
// Since ADR 0065 a line carries the file's bytes: `+<account_id>/<status_id>\t<JSON string>`,
// or `\tnull` for a file that must not exist (a removal). The status file is then renamed into
// place without its own fsync; the line is what makes the write durable until the file and its
// directory are synced (before a snapshot lets the line go). A start rewrites every file whose
// last line's bytes it does not hold (status-replay.ts). Lines of the older format (the name
// alone, no `+`) still mean "read the file as it is". The `+` keeps a line cut by a crash from
// passing for one of those: cut anywhere, a new line matches neither shape and is skipped.
//
// Journals are numbered (`statuses.journal.<n>`). A snapshot records the number of the first
// journal that goes with it; every journal from that number on is replayed, older ones are
// obsolete. Each run appends to a new number, so a line torn by a crash is only ever at the end
// of a journal that nothing appends to again.

import { type open, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { openForAppend } from "./sync-dir.ts";

const PREFIX = "statuses.journal.";
const LINE = /^[A-Za-z0-9_-]{1,200}\/[A-Za-z0-9_-]{1,200}$/;
const NAME = /^[A-Za-z0-9_-]{1,200}\/[A-Za-z0-9_-]{1,200}$/;

/**
 * What a journal says of one file: its bytes, null (it must not exist), or undefined (a line of
 * the older format: the file as it is on disk is right).
 */
export type JournalEntry = string | null | undefined;

/** The journal line of a write of `name` (`<account_id>/<status_id>`): its bytes, or null. */
export function journalLine(name: string, bytes: string | null): string {
  return `+${name}\t${bytes === null ? "null" : JSON.stringify(bytes)}`;
}

/** The numbers of the journals (`<prefix><n>`; the status journals by default) in `root`. */
export async function journalNumbers(root: string, prefix = PREFIX): Promise<number[]> {
  const names = await readdir(root);
  return names
    .filter((n) => n.startsWith(prefix) && /^\d{1,15}$/.test(n.slice(prefix.length)))
    .map((n) => Number(n.slice(prefix.length)))
    .sort((a, b) => a - b);
}

/**
 * The status files (`<account_id>/<status_id>`) named by the journals numbered `from` or more.
 * A line without its newline, or not of that shape, was never fsynced (a crash cut it): no status
 * write waited for it, so it is skipped.
 */
export async function readJournals(root: string, from: number): Promise<Set<string>> {
  return new Set((await readJournalEntries(root, from, false)).keys());
}

/**
 * The last word of the journals numbered `from` or more on each file they name, in journal and
 * line order (a later line wins). With `bytes` false the payloads are not parsed (undefined).
 */
export async function readJournalEntries(
  root: string,
  from: number,
  bytes = true,
): Promise<Map<string, JournalEntry>> {
  const entries = new Map<string, JournalEntry>();
  for (const n of await journalNumbers(root)) {
    if (n < from) continue;
    const text = await readFile(join(root, `${PREFIX}${n}`), "utf8");
    const lines = text.split("\n");
    lines.pop(); // after the last newline: empty, or a line a crash cut
    for (const line of lines) {
      if (LINE.test(line)) {
        entries.delete(line); // Map order: the last line's
        entries.set(line, undefined);
        continue;
      }
      const tab = line.indexOf("\t");
      if (line[0] !== "+" || tab < 0) continue;
      const name = line.slice(1, tab);
      if (!NAME.test(name)) continue;
      let entry: JournalEntry;
      if (bytes) {
        try {
          entry = JSON.parse(line.slice(tab + 1)) as JournalEntry;
        } catch {
          continue; // cut by a failed append, then ended by the next one's newline
        }
        if (entry !== null && typeof entry !== "string") continue;
      }
      entries.delete(name);
      entries.set(name, entry);
    }
  }
  return entries;
}

/** Removes the journals numbered below `from` (a newer snapshot covers them). */
export async function removeJournalsBefore(root: string, from: number): Promise<void> {
  for (const n of await journalNumbers(root)) {
    if (n < from) await rm(join(root, `${PREFIX}${n}`), { force: true });
  }
}

/**
 * Appends to one journal with group commit: lines asked for in the same turn share one write and
 * one fdatasync. The file is created at the first append; a failed creation or append fails the
 * waiting writes only, and the next append tries again.
 */
export class JournalFile {
  readonly number: number;
  readonly #path: string;
  readonly #root: string;
  #handle: Awaited<ReturnType<typeof open>> | undefined;
  #pending: { line: string; resolve(): void; reject(e: unknown): void }[] = [];
  #draining: Promise<void> | undefined;
  /** After a failed append the file may end in a cut line: the next batch starts a new one. */
  #newLine = false;
  #closed = false;
  /** Lines appended durably (the snapshot threshold counts them). */
  lines = 0;
  /** Characters appended durably (a snapshot comes before the journal grows past reading). */
  chars = 0;

  readonly #checkFault: ((path: string) => void) | undefined;

  /** `checkFault`: tests' simulated disk errors (DurableWriter.checkFault), struck per append. */
  constructor(root: string, number: number, checkFault?: (path: string) => void) {
    this.#root = root;
    this.number = number;
    this.#path = join(root, `${PREFIX}${number}`);
    this.#checkFault = checkFault;
  }

  /** Resolves once `line` is durably in the journal. */
  append(line: string): Promise<void> {
    // A closed journal would open its file again, and nothing would close it.
    if (this.#closed) {
      return Promise.reject(new Error(`The status journal ${this.#path} is closed`));
    }
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    this.#pending.push({ line, resolve, reject });
    this.#draining ??= new Promise<void>((r) => setImmediate(r)).then(() => this.#drain());
    return promise;
  }

  /** Waits for the appends asked for so far, then closes the file; later appends fail. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#draining) await this.#draining;
    await this.#handle?.close();
    this.#handle = undefined;
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0);
      try {
        this.#checkFault?.(this.#path);
        this.#handle ??= await openForAppend(this.#root, this.#path);
        const text = batch.map((p) => `${p.line}\n`).join("");
        await this.#handle.appendFile(this.#newLine ? `\n${text}` : text);
        this.#newLine = false;
        await this.#handle.datasync();
        this.lines += batch.length;
        this.chars += text.length;
        for (const p of batch) p.resolve();
      } catch (error) {
        this.#newLine = true;
        // Reopened by the next append: a handle that failed (EIO, a remount) may stay broken.
        await this.#handle?.close().catch(() => {});
        this.#handle = undefined;
        for (const p of batch) p.reject(error);
      }
    }
    this.#draining = undefined;
  }
}
