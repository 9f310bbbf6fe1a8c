// The json-file backend keeps a summary of every status in memory (ADR 6): its reach ends where
// the summaries fill Node's heap, and a full heap is a crash, not a slowdown. This watch tells
// the operator before that point, with what to do: raise Node's heap limit while the machine has
// memory to spare, then move to the postgres backend (ADR 11, docs/configuration.md).

import { totalmem } from "node:os";
import { getHeapStatistics } from "node:v8";
import { getLogger } from "@logtape/logtape";

const logger = getLogger(["wren", "storage"]);

/**
 * Memory a status costs with its indexes: 140–190 bytes measured with realistic statuses, heap
 * and array buffers together (docs/PERFORMANCE.md, "Status memory: a table of columns", ADR
 * 37). The columns are array buffers, outside the heap limit: counting them warns early.
 */
export const HEAP_BYTES_PER_STATUS = 200;
/** Shares of the heap limit at which the estimate is reported, once each per run. */
export const WARN_SHARES = [0.7, 0.9] as const;

const MB = 1024 * 1024;

export interface HeapWatchOptions {
  /** Bytes V8 may use (v8.getHeapStatistics().heap_size_limit by default). */
  heapLimit?: number;
  /** The machine's memory (os.totalmem() by default), to suggest a limit. */
  machineMemory?: number;
  warn?(message: string): void;
}

/** The message for `statuses` summaries, or undefined while they fit well below `share`. */
export function heapAdvice(
  statuses: number,
  heapLimit: number,
  machineMemory: number,
  share: number,
): string | undefined {
  const needed = statuses * HEAP_BYTES_PER_STATUS;
  if (needed < heapLimit * share) return undefined;
  // Three quarters of the machine: room for the page cache, bodies, requests and the system.
  const suggested = Math.floor((machineMemory * 0.75) / MB);
  const limitMb = Math.round(heapLimit / MB);
  const raise =
    suggested > limitMb * 1.2
      ? `raise Node's heap limit (NODE_OPTIONS=--max-old-space-size=${suggested}, three quarters of this machine's memory) and `
      : "this machine has no memory to spare for a larger heap: ";
  return (
    `${statuses} statuses take about ${Math.round(needed / MB)} MB of the ${limitMb} MB heap limit ` +
    `(${Math.round((needed / heapLimit) * 100)}%): the json-file backend keeps a summary of every ` +
    `status in memory and the server stops when the heap is full. To keep growing, ${raise}` +
    "plan the move to the postgres backend (docs/configuration.md, “Scale of the default backend”)."
  );
}

/** Warns once per share in WARN_SHARES as the number of statuses grows. */
export class HeapWatch {
  readonly #limit: number;
  readonly #memory: number;
  readonly #warn: (message: string) => void;
  #next = 0;
  /** The count at which the next share is reached (cheap test on every new status). */
  #threshold: number;

  constructor(options: HeapWatchOptions = {}) {
    this.#limit = options.heapLimit ?? getHeapStatistics().heap_size_limit;
    this.#memory = options.machineMemory ?? totalmem();
    this.#warn = options.warn ?? ((message) => logger.warn(message));
    this.#threshold = this.#thresholdOf(0);
  }

  check(statuses: number): void {
    if (statuses < this.#threshold) return;
    let share: number | undefined;
    while (this.#next < WARN_SHARES.length && statuses >= this.#thresholdOf(this.#next)) {
      share = WARN_SHARES[this.#next++];
    }
    this.#threshold = this.#thresholdOf(this.#next);
    const message =
      share === undefined ? undefined : heapAdvice(statuses, this.#limit, this.#memory, share);
    if (message) this.#warn(message);
  }

  #thresholdOf(index: number): number {
    const share = WARN_SHARES[index];
    if (share === undefined) return Number.POSITIVE_INFINITY;
    return Math.ceil((this.#limit * share) / HEAP_BYTES_PER_STATUS);
  }
}
