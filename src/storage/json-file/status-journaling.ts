// How a status file changes durably (ADR 11, ADR 0065): its line goes into the current journal
// first (with the file's bytes, or null for a removal), then the file changes; a snapshot of
// the summaries is written after many lines, and the journals it covers go. This holds the
// journal in use, the writes in flight across a snapshot, and the files whose state a failed
// write left unknown; StatusRecords keeps the rows and bodies.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { getLogger } from "@logtape/logtape";
import { cannotStore } from "../../domain/errors.ts";
import { type DurableWriter, ignoreCode } from "./durable-writer.ts";
import { JournalFile, journalLine, removeJournalsBefore } from "./status-journal.ts";
import { writeSnapshot } from "./status-snapshot.ts";
import type { StatusTable } from "./status-table.ts";
import { WriteOrder } from "./write-order.ts";

const logger = getLogger(["wren", "storage"]);

/**
 * Rewriting the snapshot (about 150 bytes per status) after a twentieth of the statuses changed
 * costs about 3 kB written per status write, as much as the status file itself.
 */
export const MIN_CHECKPOINT_EVERY = 20_000;
/**
 * A journal carries each status's bytes (ADR 0065): a snapshot also comes once one holds this
 * much, so a start can read it as one string (V8's limit is about 512 MB) and hold its bytes.
 * Only stores past about 3M statuses reach it before a twentieth of their statuses is written.
 */
export const MAX_JOURNAL_CHARS = 256 * 1024 * 1024;

export interface StatusJournalingOptions {
  /** The data directory (journals and snapshot) and its `statuses/` folder. */
  root: string;
  dir: string;
  writer: DurableWriter;
  /** The number of the journal this run appends to (above every existing one). */
  journal: number;
  /** The rows, copied for each snapshot and counted for its due time. */
  table: () => StatusTable;
  /** Journal lines between snapshots; by default a twentieth of the statuses, at least MIN_CHECKPOINT_EVERY. */
  checkpointEvery?: number;
  /** The statuses whose files are still to be written (status-filer.ts, ADR 0084). */
  unfiled: UnfiledStatuses;
}

/** What the status filer tells the journal of the files it has not written yet. */
export interface UnfiledStatuses {
  /** The bytes the status's file is to hold. */
  bytesOf(id: string): string | undefined;
  /** Their journal lines: a snapshot writes them again in its journal. */
  lines(): string[];
}

export class StatusJournaling {
  readonly #options: StatusJournalingOptions;
  readonly #order = new WriteOrder();
  /** Where this run journals its writes; replaced by a fresh one at each snapshot. */
  #journal: JournalFile;
  /**
   * Files (`<account_id>/<id>`) journaled whose put has not settled, with the last line of
   * each: a snapshot may miss them, and writes that line again in its journal.
   */
  readonly #inFlight = new Map<string, { count: number; line: string }>();
  /** Files whose write failed (state unknown): named again in every new journal. */
  readonly #unsure = new Set<string>();
  #checkpointing: Promise<void> | undefined;
  #stopped = false;
  /** False while the snapshot on disk covers everything without a journal: a close skips it. */
  stale = true;

  constructor(options: StatusJournalingOptions) {
    this.#options = options;
    this.#journal = new JournalFile(options.root, options.journal, (path) =>
      options.writer.checkFault(path),
    );
  }

  /** Whether a change of the status is under way (begun and not yet settled). */
  busy(id: string): boolean {
    return this.#order.busy(id);
  }

  /**
   * One change of a status file: its line (with the bytes, or null for a removal) in the
   * journal, then the change made, then shown in memory through `show` unless a later change
   * of the status landed first. A write that fails after its line may be durable gets a line
   * with what the file still holds, so a start does not bring back a refused write.
   */
  async change(
    id: string,
    file: string,
    bytes: string | null,
    write: () => Promise<void>,
    show: () => void,
    unjournaled?: () => Promise<void>,
  ): Promise<void> {
    const sequence = this.#order.begin(id);
    const path = file.slice(0, -".json".length);
    const line = journalLine(path, bytes);
    // Counted before the journal is chosen, in the same step: a snapshot started meanwhile
    // either sees this change here (and writes its line again in its journal) or gets the line
    // itself.
    const flight = this.#inFlight.get(path);
    this.#inFlight.set(path, { count: (flight?.count ?? 0) + 1, line });
    try {
      try {
        // In the journal before the file changes: a start restores or reads again every file
        // it names. A failed append fails this write only; the next one tries again.
        this.stale = true;
        await this.#journal.append(line);
      } catch (error) {
        await unjournaled?.();
        // The line may have reached the disk whole before the failure (a failed fdatasync).
        await this.#undo(path);
        // A full or read-only disk is said as such (507), like any other refused write.
        throw (
          cannotStore(error) ??
          new Error(`Cannot journal status ${id}: ${(error as Error).message}`, {
            cause: error,
          })
        );
      }
      try {
        await write();
      } catch (error) {
        await this.#undo(path);
        throw error;
      }
      if (this.#order.mayApply(id, sequence)) {
        this.#options.writer.noteVisibleChange("statuses");
        show();
      }
    } finally {
      this.#order.end(id);
      const entry = this.#inFlight.get(path);
      if (entry === undefined || --entry.count === 0) this.#inFlight.delete(path);
    }
    this.#checkpointIfDue();
  }

  /**
   * After a refused write whose line may be durable: a line with what the file holds now (the
   * previous version, or null), so a start restores that instead of the refused bytes. If even
   * that append fails, the file's state is unknown: named again in every new journal.
   */
  async #undo(path: string): Promise<void> {
    this.#unsure.add(path);
    try {
      const now =
        this.#options.unfiled.bytesOf(path.slice(path.indexOf("/") + 1)) ??
        (await readFile(join(this.#options.dir, `${path}.json`), "utf8").catch(
          ignoreCode("ENOENT"),
        ));
      await this.#journal.append(journalLine(path, now ?? null));
      this.#unsure.delete(path);
    } catch (error) {
      logger.error(
        "Could not journal the state of status file {path} after a refused write ({error}); " +
          "a start before the next snapshot may restore the refused version",
        { path, error: String(error) },
      );
    }
  }

  #checkpointIfDue(): void {
    const every =
      this.#options.checkpointEvery ??
      Math.max(MIN_CHECKPOINT_EVERY, Math.floor(this.#options.table().size / 20));
    if (this.#journal.lines >= every || this.#journal.chars >= MAX_JOURNAL_CHARS) {
      this.checkpointSoon();
    }
  }

  /** Writes a snapshot in the background unless one is being written; failures are logged. */
  checkpointSoon(): void {
    if (this.#checkpointing || this.#stopped) return;
    this.#checkpointing = this.#checkpoint()
      .catch((error) => {
        // The journals still cover every change: only the next start gets slower.
        logger.warn("Could not write the status snapshot ({path}): {error}", {
          path: this.#options.root,
          error: String(error),
        });
      })
      .finally(() => {
        this.#checkpointing = undefined;
      });
  }

  /**
   * A new journal, the snapshot naming it, then the older journals go. Writes journaled before
   * the switch and not settled yet (and failed ones) are named again in the new journal, so
   * the snapshot plus its journals cover every file that may differ from it.
   */
  async #checkpoint(): Promise<void> {
    const { root, writer } = this.#options;
    const old = this.#journal;
    const fresh = new JournalFile(root, old.number + 1, (path) => writer.checkFault(path));
    this.#journal = fresh;
    // In the same step as the switch: every file renamed without fsync so far has its line in
    // an older journal, and must be durable before the snapshot lets those go (ADR 0065).
    const syncing = writer.syncDeferred();
    // Files not written yet (ADR 0084), then writes in flight (their lines come later): their
    // lines again, with the bytes. Failed ones: their names (the file as it is, synced by
    // then, is right).
    const carried = [
      ...this.#options.unfiled.lines(),
      ...[...this.#inFlight.values()].map((flight) => flight.line),
    ];
    const unsure = [...this.#unsure].filter((path) => !this.#inFlight.has(path));
    // A copy of the columns (about 60 bytes a status, for the time of the write): the rows
    // change under a snapshot being written.
    const summaries = this.#options.table().copy();
    // From here on only writes journaled in `fresh` are missing from the snapshot.
    this.stale = carried.length + unsure.length > 0;
    try {
      await Promise.all([syncing, ...carried.map((line) => fresh.append(line))]);
      // Only once the sync is done: the older journals' lines with bytes stay the last word
      // on these files until then.
      await Promise.all(unsure.map((path) => fresh.append(path)));
      await writeSnapshot(root, summaries, fresh.number);
    } catch (error) {
      this.stale = true;
      throw error;
    } finally {
      // Its file stays until a snapshot covers it; only the handle goes.
      await old.close();
    }
    await removeJournalsBefore(root, fresh.number);
  }

  /** No snapshot starts from here on; waits for the one being written. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#checkpointing;
  }

  /**
   * Closes the journal's file once the writes in flight have settled (after stop()): its lines
   * stay on disk for the next start, only the descriptor goes. Every close of the storage does
   * this, also one that writes no snapshot after it (`wren doctor`) or fails before it.
   */
  async closeJournal(): Promise<void> {
    await this.#journal.close();
  }

  /**
   * Writes the snapshot for the next start, after stop() and once the writer has made every
   * write durable, unless the one on disk is exact; then closes the journal, also when the
   * snapshot fails (a full disk): its lines are then what the next start reads.
   */
  async closeWithSnapshot(): Promise<void> {
    try {
      await this.#checkpointing;
      // A run without status writes after a start that read nothing again: the snapshot is
      // still exact (rewriting it costs about 150 bytes per status).
      if (this.stale) await this.#checkpoint();
    } finally {
      await this.#journal.close();
    }
  }
}
