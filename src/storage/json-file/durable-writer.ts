// Crash-safe file writes with group commit.
//
// A write goes to a temporary file in the target's directory, is fsynced, renamed over the
// target, and the directory is fsynced so the rename itself survives a power cut. Readers of the
// directory therefore see either the old file or the new one, never a torn one.
//
// fsync is the slow part, so writes are batched: every write requested while a batch is being
// committed joins the next batch, whose files are written and fsynced in parallel, renamed, and
// whose directories are then fsynced once each. Each caller's promise resolves only when its
// data is durable. Writes (and removals) of one path are applied in call order: within a batch
// only the last one for a path is performed, and batches run one after another.
//
// A directory fsync that fails comes after its renames: the new files are already what every
// reader sees, and undoing a rename would need the same failing fsync to be durable. So those
// writes are acknowledged (a write answered with an error must not be applied, and memory must
// match the disk) and the failure is logged as an error: they may not survive a power cut. A
// disk that fails like this usually turns read-only next, and later writes are refused.
//
// A write requested inside `gates.run(gate, …)` (write-gate.ts) is held in its batch until its
// gate resolves, and fails with the gate's failure: an event's record is durable before the
// change it announces. A later write of the same path merged into that op waits with it.

import { mkdir, readdir, rename, rm, unlink } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";
import { getLogger } from "@logtape/logtape";
import { cannotStore } from "../../domain/errors.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../private-modes.ts";
import { KindVersions, type VersionKind } from "../version-kinds.ts";
import { closeFd, openFd, syncFd, writeAllFd } from "./fd-files.ts";
import { FILE_SYSTEM_SYNC_FROM, syncFileSystems } from "./file-system-sync.ts";
import { forEachLimit } from "./parallel.ts";
import type { WriteFaults } from "./write-faults.ts";
import { WriteGates } from "./write-gate.ts";

const logger = getLogger(["wren", "storage"]);

/** Every temporary file ends with this, so a start-up sweep can find leftovers of a crash. */
export const TEMP_SUFFIX = ".wren-tmp";

export interface DurableWriterStats {
  /** Batches committed. */
  batches: number;
  /** Temporary files written and fsynced. */
  fileSyncs: number;
  /** Directory fsyncs. */
  dirSyncs: number;
  /** Deferred files (noteDeferred) fsynced one by one. */
  deferredFileSyncs: number;
  /** Times the deferred files were made durable by syncing their file systems at once. */
  fileSystemSyncs: number;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface PendingOp {
  path: string;
  /** The new content, or null to remove the file. */
  data: string | null;
  waiters: Waiter[];
  /** What must be durable before this change is made (write-gate.ts). */
  gates: Promise<void>[];
}

export class DurableWriter {
  readonly stats: DurableWriterStats = {
    batches: 0,
    fileSyncs: 0,
    dirSyncs: 0,
    deferredFileSyncs: 0,
    fileSystemSyncs: 0,
  };
  /** Holds the changes requested inside a gate's scope until the gate resolves. */
  readonly gates = new WriteGates();
  // Map order is first-request order; a later request for the same path replaces the content
  // of the pending op in place (last one wins) and adds its waiter.
  #pending = new Map<string, PendingOp>();
  #draining = false;
  #closed = false;
  #idle: (() => void)[] = [];
  #knownDirs = new Set<string>();
  #tempCounter = 0;
  #concurrency: number;
  readonly #versions = new KindVersions();
  /** Status files renamed into place without fsync (ADRs 0065, 0084), not synced yet. */
  #deferredFiles = new Set<string>();
  /** Directories whose entries (those files, new folders) are not fsynced yet. */
  #deferredDirs = new Set<string>();
  readonly #faults: WriteFaults | undefined;
  readonly #syncFileSystems: (dirs: readonly string[]) => Promise<boolean>;

  /**
   * `faults` is for tests only (write-faults.ts): it simulates a full or read-only disk.
   * `syncFileSystems` too: it replaces file-system-sync.ts' to test the file-by-file way.
   */
  constructor(
    options: {
      concurrency?: number;
      faults?: WriteFaults;
      syncFileSystems?: (dirs: readonly string[]) => Promise<boolean>;
    } = {},
  ) {
    this.#concurrency = options.concurrency ?? 64;
    this.#faults = options.faults;
    this.#syncFileSystems = options.syncFileSystems ?? syncFileSystems;
  }

  /**
   * Counts the changes the stores sharing this writer have made visible (Storage.version), and
   * by kind of record (Storage.versionOf, ADR 0072). The writer is the one object they all
   * share; the stores call noteVisibleChange() in the same synchronous step that changes what
   * they answer, naming the kind of what they changed.
   */
  get version(): number {
    return this.#versions.total;
  }

  versionOf(kinds: readonly VersionKind[]): number {
    return this.#versions.of(kinds);
  }

  noteVisibleChange(kind: VersionKind | readonly VersionKind[]): void {
    this.#versions.note(kind);
  }

  /** Replaces the file at `path` with `data`; resolves once it is durable. */
  write(path: string, data: string): Promise<void> {
    return this.#enqueue(path, data);
  }

  /** Removes the file at `path` (missing is fine); resolves once the removal is durable. */
  remove(path: string): Promise<void> {
    return this.#enqueue(path, null);
  }

  /**
   * Counts `path` (and its directory) among the files to sync: a start found it unsynced, or
   * the status filer (status-filer.ts) wrote it without an fsync.
   */
  noteDeferred(path: string): void {
    this.#deferredFiles.add(path);
    this.#deferredDirs.add(dirname(path));
  }

  /** Counts a directory among those to sync: the status filer made a folder in it. */
  noteDeferredDir(dir: string): void {
    this.#deferredDirs.add(dir);
  }

  /** Tests only: throws the simulated disk error (write-faults.ts) a write to `path` would meet. */
  checkFault(path: string): void {
    this.#faults?.check("write", path);
  }

  /**
   * Makes durable every file noted by noteDeferred() before this call,
   * then their directories. The set is taken at once, synchronously: what is committed later
   * waits for the next call. On a failure the files stay to sync and the call rejects.
   */
  syncDeferred(): Promise<void> {
    const files = [...this.#deferredFiles];
    const dirs = [...this.#deferredDirs];
    this.#deferredFiles.clear();
    this.#deferredDirs.clear();
    return (async () => {
      try {
        // Many files: their file systems synced at once (file-system-sync.ts says why).
        if (files.length >= FILE_SYSTEM_SYNC_FROM && (await this.#syncFileSystems(dirs))) {
          this.stats.fileSystemSyncs++;
          return;
        }
        await forEachLimit(files, 16, async (path) => {
          // Read and write: Windows' FlushFileBuffers needs a writable handle.
          const fd = await openFd(path, "r+").catch(ignoreCode("ENOENT"));
          if (fd === undefined) return; // removed since, durably (its removal synced its folder)
          try {
            await syncFd(fd);
            this.stats.deferredFileSyncs++;
          } finally {
            closeFd(fd);
          }
        });
        await forEachLimit(dirs, 16, (dir) =>
          this.#syncDir(dir).catch((e) => ignoreCode("ENOENT")(e)),
        );
      } catch (error) {
        for (const path of files) this.#deferredFiles.add(path);
        for (const dir of dirs) this.#deferredDirs.add(dir);
        throw error;
      }
    })();
  }

  /** Resolves when every write requested so far has been committed (or has failed). */
  flush(): Promise<void> {
    if (!this.#draining && this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Refuses new writes and waits for the pending ones. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  #enqueue(path: string, data: string | null): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`Storage is closed; cannot write ${path}`));
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const gate = this.gates.current();
    const op = this.#pending.get(path);
    if (op) {
      op.data = data;
      op.waiters.push({ resolve, reject });
      if (gate) op.gates.push(gate);
    } else {
      const gates = gate ? [gate] : [];
      this.#pending.set(path, { path, data, waiters: [{ resolve, reject }], gates });
    }
    if (!this.#draining) {
      this.#draining = true;
      // Wait one turn of the event loop so writes requested together (a Promise.all of puts,
      // several requests handled in the same tick) share the first batch too.
      setImmediate(() => void this.#drain());
    }
    return promise;
  }

  async #drain(): Promise<void> {
    while (this.#pending.size > 0) {
      const batch = [...this.#pending.values()];
      this.#pending = new Map();
      await this.#commit(batch);
    }
    // No await between the empty check and here, so no request can slip in unnoticed.
    this.#draining = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Commits one batch. Never throws: each op's failure goes to its own waiters. */
  async #commit(batch: PendingOp[]): Promise<void> {
    this.stats.batches++;
    const failures = new Map<PendingOp, unknown>();
    const dirsToSync = new Set<string>();

    // Usually resolved already: the gate's fsync began before the change was asked for.
    await Promise.all(
      batch
        .filter((op) => op.gates.length > 0)
        .map((op) => Promise.all(op.gates).catch((error) => failures.set(op, error))),
    );

    await forEachLimit(batch, this.#concurrency, async (op) => {
      if (failures.has(op)) return;
      try {
        const dir = dirname(op.path);
        this.#faults?.check(op.data === null ? "remove" : "write", op.path);
        if (op.data === null) {
          await unlink(op.path).catch(ignoreCode("ENOENT"));
        } else {
          await this.#ensureDir(dir, dirsToSync);
          await this.#replace(op.path, op.data);
        }
        dirsToSync.add(dir);
      } catch (error) {
        failures.set(op, error);
      }
    });

    await forEachLimit([...dirsToSync], this.#concurrency, async (dir) => {
      try {
        await this.#syncDir(dir);
      } catch (error) {
        // Not a failure of the writes: they are in place (see the top of this file).
        const paths = batch.filter((op) => op.path.startsWith(dir + sep) && !failures.has(op));
        logger.error(
          "Could not fsync directory {dir} ({error}): {count} file(s) just written there are in " +
            "place but may not survive a power cut; check the disk",
          { dir, error: String(error), count: paths.length, paths: paths.map((op) => op.path) },
        );
      }
    });

    for (const op of batch) {
      const failure = failures.get(op);
      // A full, read-only or unwritable disk becomes the storage's own error (507 to a client);
      // anything else stays as it is.
      const error = failure === undefined ? undefined : (cannotStore(failure, op.path) ?? failure);
      for (const waiter of op.waiters) {
        if (error === undefined) waiter.resolve();
        else waiter.reject(error);
      }
    }
  }

  /** Writes a fsynced temporary file beside `path` and renames it over `path`. */
  async #replace(path: string, data: string): Promise<void> {
    const temp = this.#tempOf(path);
    try {
      const fd = await openFd(temp, "wx", PRIVATE_FILE_MODE);
      try {
        await writeAllFd(fd, data);
        await syncFd(fd);
        this.stats.fileSyncs++;
      } finally {
        closeFd(fd);
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  #tempOf(path: string, dir = dirname(path)): string {
    return join(dir, `.${basename(path)}.${process.pid}-${++this.#tempCounter}${TEMP_SUFFIX}`);
  }

  /** Creates `dir` if needed; new directories need their parents fsynced to be durable. */
  async #ensureDir(dir: string, dirsToSync: Set<string>): Promise<void> {
    if (this.#knownDirs.has(dir)) return;
    const first = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (first !== undefined) {
      // mkdir created `first` and everything below it down to `dir`: each new entry lives in
      // its parent directory.
      for (let d = dir; ; d = dirname(d)) {
        dirsToSync.add(dirname(d));
        if (d === first || dirname(d) === d) break;
      }
    }
    this.#knownDirs.add(dir);
  }

  async #syncDir(dir: string): Promise<void> {
    // Windows cannot open a directory for fsync; NTFS journals renames itself.
    if (process.platform === "win32") return;
    this.#faults?.checkDirSync(dir);
    const fd = await openFd(dir, "r");
    try {
      await syncFd(fd);
      this.stats.dirSyncs++;
    } finally {
      closeFd(fd);
    }
  }
}

/**
 * Removes temporary files left by a crash anywhere under `root` (they were never renamed into
 * place, so they hold nothing that was acknowledged), except under the `skip` folders (paths
 * relative to `root`; `["*"]`: every folder, only `root`'s own files). Returns the removed paths.
 */
export async function removeLeftoverTempFiles(
  root: string,
  skip: readonly string[] = [],
): Promise<string[]> {
  const removed: string[] = [];
  const skipped = new Set(skip.map((folder) => join(root, folder)));
  const topOnly = skip.includes("*");
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(ignoreCode("ENOENT"));
    if (!entries) return;
    await forEachLimit(entries, 16, async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipped.has(path) && !topOnly) await walk(path);
      } else if (entry.isFile() && entry.name.endsWith(TEMP_SUFFIX)) {
        await rm(path, { force: true });
        removed.push(path);
      }
    });
  };
  await walk(root);
  return removed;
}

/** A catch handler that swallows one errno code (e.g. a missing file) and rethrows the rest. */
export function ignoreCode(code: string): (error: unknown) => undefined {
  return (error) => {
    if ((error as NodeJS.ErrnoException).code === code) return undefined;
    throw error;
  };
}
