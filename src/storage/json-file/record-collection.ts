// A collection of records kept one JSON file per record under a folder of the data directory,
// all loaded into memory at start. Reads are served from memory; a put updates memory only once
// its file is durable, so a reader never sees a record that could be lost in a crash.

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { deepFreeze } from "../../domain/deep-freeze.ts";
import type { VersionKind } from "../version-kinds.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { ignoreCode } from "./durable-writer.ts";
import { kindsOfFolder } from "./folder-kinds.ts";
import { forEachLimit } from "./parallel.ts";
import { DamagedRecordError, isDamage, noteLoaded, reportDamage } from "./quarantine.ts";
import { WriteOrder } from "./write-order.ts";

export interface CollectionSpec<T> {
  /** Folder under the data directory, e.g. "accounts". */
  folder: string;
  /** 0: files directly in the folder; 1: in one level of subfolders (statuses/<account>/…). */
  depth: 0 | 1;
  /** The record's unique key. */
  keyOf(record: T): string;
  /** The record's file relative to the folder, "/"-separated, e.g. `7/42.json`. */
  fileOf(record: T): string;
  /**
   * Keeps secondary indexes in step. Called whenever the record visible under a key changes
   * (including once per record while loading), before any reader can observe the change.
   */
  onChange?(previous: T | undefined, next: T | undefined): void;
  /** Its changes leave Storage.version alone: no API answer shows it (the job queue). */
  outsideVersion?: boolean;
}

/** File-name segments are ids and hashes: anything else could escape the folder. */
const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,200}$/;

export class RecordCollection<T extends object> {
  readonly #root: string;
  readonly #dir: string;
  readonly #spec: CollectionSpec<T>;
  readonly #writer: DurableWriter;
  readonly #records = new Map<string, T>();
  readonly #order = new WriteOrder();
  /** What its changes count for (Storage.versionOf); null: nothing (the job queue). */
  readonly #kinds: VersionKind | readonly VersionKind[] | null;

  private constructor(root: string, spec: CollectionSpec<T>, writer: DurableWriter) {
    this.#root = root;
    this.#dir = join(root, spec.folder);
    this.#spec = spec;
    this.#writer = writer;
    this.#kinds = spec.outsideVersion ? null : kindsOfFolder(spec.folder);
  }

  /**
   * Reads every record file of the folder. A damaged file is moved aside and its record left
   * out (quarantine.ts); other read errors (permissions) throw, naming the file.
   */
  static async load<T extends object>(
    root: string,
    spec: CollectionSpec<T>,
    writer: DurableWriter,
  ): Promise<RecordCollection<T>> {
    const collection = new RecordCollection(root, spec, writer);
    await collection.#loadAll();
    return collection;
  }

  get size(): number {
    return this.#records.size;
  }

  /** The stored record itself (deeply frozen). */
  peek(key: string): T | undefined {
    return this.#records.get(key);
  }

  /** The record, safe to give away: it is deeply frozen, so nobody can change it in place. */
  get(key: string): T | undefined {
    return this.#records.get(key);
  }

  /** The records of the keys that have one (a store's batched getMany). */
  getMany(keys: readonly string[]): Map<string, T> {
    const found = new Map<string, T>();
    for (const key of keys) {
      const record = this.#records.get(key);
      if (record) found.set(key, record);
    }
    return found;
  }

  /** The stored records themselves (deeply frozen). */
  values(): IterableIterator<T> {
    return this.#records.values();
  }

  /** Creates or replaces the record; resolves once durable and visible. */
  async put(record: T): Promise<void> {
    // Keep exactly what a reload will read back (JSON drops undefined fields, turns dates
    // into strings…), and detach it from the caller's object.
    const json = `${JSON.stringify(record, null, 2)}\n`;
    const value = deepFreeze(JSON.parse(json) as T);
    const key = this.#spec.keyOf(value);
    const file = this.#fileOf(value);
    const current = this.#records.get(key);
    if (current !== undefined && this.#spec.fileOf(current) !== file) {
      // The record's file is derived from fields that never change (a status's account);
      // moving it would leave two files for one key behind a crash.
      throw new Error(`Record ${key} of ${this.#spec.folder} cannot move to ${file}`);
    }
    const sequence = this.#order.begin(key);
    try {
      await this.#writer.write(join(this.#dir, file), json);
      this.#apply(key, sequence, value);
    } finally {
      this.#order.end(key);
    }
  }

  /**
   * Removes the record; like a put, the removal shows only once it is durable. False when there
   * was no record. (Callers needing an exact answer under concurrency serialize per key.)
   */
  async remove(key: string): Promise<boolean> {
    const current = this.#records.get(key);
    if (current === undefined) return false;
    const sequence = this.#order.begin(key);
    try {
      await this.#writer.remove(join(this.#dir, this.#fileOf(current)));
      this.#apply(key, sequence, undefined);
    } finally {
      this.#order.end(key);
    }
    return true;
  }

  /** Removes the record and returns it; only one of several concurrent takes gets it. */
  async take(key: string): Promise<T | undefined> {
    const current = this.#records.get(key);
    if (current === undefined) return undefined;
    const sequence = this.#order.begin(key);
    // Hidden at once rather than after the removal is durable: single use matters more here
    // than showing only acknowledged state (the worst case after a crash is a code that still
    // exists on disk but was never handed out twice in this run).
    this.#apply(key, sequence, undefined);
    try {
      await this.#writer.remove(join(this.#dir, this.#fileOf(current)));
    } finally {
      this.#order.end(key);
    }
    return current;
  }

  #apply(key: string, sequence: number, value: T | undefined): void {
    if (!this.#order.mayApply(key, sequence)) return;
    if (this.#kinds !== null) this.#writer.noteVisibleChange(this.#kinds);
    const previous = this.#records.get(key);
    if (value === undefined) this.#records.delete(key);
    else this.#records.set(key, value);
    this.#spec.onChange?.(previous, value);
  }

  #fileOf(record: T): string {
    return safeFileOf(this.#spec, record);
  }

  async #loadAll(): Promise<void> {
    const files = await listRecordFiles(this.#dir, this.#spec.depth);
    const seen = new Map<string, string>();
    await forEachLimit(files, 64, async (file) => {
      const path = join(this.#dir, file);
      try {
        const record = deepFreeze(parseRecordFile(this.#spec, path, file, await readFile(path)));
        const key = this.#spec.keyOf(record);
        const other = seen.get(key);
        if (other !== undefined) {
          throw new DamagedRecordError(path, `holds the same key as ${join(this.#dir, other)}`);
        }
        seen.set(key, file);
        this.#applyLoaded(key, record);
        noteLoaded(this.#writer, this.#spec.folder, file, record);
      } catch (error) {
        if (!isDamage(error)) throw error;
        await reportDamage(this.#writer, this.#root, path, error);
      }
    });
  }

  /** Files a loaded record; one the indexes cannot take (a field of the wrong type) is damage. */
  #applyLoaded(key: string, record: T): void {
    try {
      this.#apply(key, 0, record);
    } catch (error) {
      this.#records.delete(key);
      throw new DamagedRecordError(join(this.#dir, this.#spec.fileOf(record)), String(error), {
        cause: error,
      });
    }
  }
}

/** The record's file, refused unless every segment is a plain id (see SAFE_SEGMENT). */
export function safeFileOf<T>(
  spec: Pick<CollectionSpec<T>, "fileOf" | "depth" | "folder">,
  record: T,
): string {
  const file = spec.fileOf(record);
  const segments = file.replace(/\.json$/, "").split("/");
  if (segments.length !== spec.depth + 1 || !segments.every((s) => SAFE_SEGMENT.test(s))) {
    throw new Error(`Unsafe file name for a record of ${spec.folder}: ${file}`);
  }
  return file;
}

/**
 * Parses one record file and checks that it sits where its content says it belongs; throws a
 * DamagedRecordError otherwise. Takes the bytes: text that is not UTF-8 is damage too.
 */
export function parseRecordFile<T>(
  spec: Pick<CollectionSpec<T>, "fileOf">,
  path: string,
  file: string,
  data: Uint8Array | string,
): T {
  let record: T;
  try {
    const text = typeof data === "string" ? data : strictUtf8.decode(data);
    record = JSON.parse(text) as T;
  } catch (error) {
    throw new DamagedRecordError(path, (error as Error).message, { cause: error });
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    throw new DamagedRecordError(path, "not a JSON object");
  }
  // The file name is derived from the record; a mismatch means a misplaced or edited file
  // (a copy saved under another name), which would otherwise shadow or duplicate a real record.
  let expected: string;
  try {
    expected = spec.fileOf(record);
  } catch (error) {
    throw new DamagedRecordError(path, (error as Error).message, { cause: error });
  }
  if (expected !== file) {
    throw new DamagedRecordError(path, `its content belongs in ${expected}`);
  }
  return record;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Relative paths of the `.json` files of the folder (other files are not records). */
export async function listRecordFiles(dir: string, depth: 0 | 1): Promise<string[]> {
  const top = await readdir(dir, { withFileTypes: true }).catch(ignoreCode("ENOENT"));
  if (!top) return [];
  if (depth === 0) {
    return top.filter((e) => e.isFile() && e.name.endsWith(".json")).map((e) => e.name);
  }
  const files: string[] = [];
  await forEachLimit(
    top.filter((e) => e.isDirectory()),
    16,
    async (sub) => {
      const entries = await readdir(join(dir, sub.name), { withFileTypes: true });
      for (const e of entries) {
        if (e.isFile() && e.name.endsWith(".json")) files.push(`${sub.name}/${e.name}`);
      }
    },
  );
  return files;
}
