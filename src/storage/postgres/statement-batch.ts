// Removals batched across requests: one statement for the ids of many, where each request sent
// its own. What it is for: an event's record (services/events.ts) is removed once its listeners
// ran, a statement and a round trip per post, favourite, follow. The removal is not what makes
// the request correct — until it happens the record is a lease that runs again after it ends,
// which the listeners are written to bear (idempotent) — so it can wait a moment and go with
// others: ids are gathered for `delayMs` after the first, then sent in one statement, one
// statement at a time (those that come while one is under way go in the next). A process that
// dies with ids still gathered leaves their records to run again after their lease; one that
// closes sends them first (flush). ADR 0043.

import { getLogger } from "@logtape/logtape";

const logger = getLogger(["wren", "storage", "batch"]);

export interface StatementBatch {
  /** Gathers `id` for the next statement; returns at once. */
  add(id: string): void;
  /** Sends what is gathered now (and waits for any statement under way): before closing. */
  flush(): Promise<void>;
  /** The ids gathered or in the statement under way: not yet done. */
  pending(): string[];
}

export interface StatementBatchOptions {
  /** Sends the statement for these ids; its failure is logged, the ids are not tried again. */
  send(ids: string[]): Promise<unknown>;
  /** How long ids are gathered after the first (ms). */
  delayMs: number;
  /** Sent at once when this many are gathered. */
  maxIds: number;
  /** What the statement does, for the log. */
  what: string;
}

export function createStatementBatch(options: StatementBatchOptions): StatementBatch {
  const { send, delayMs, maxIds, what } = options;
  let gathered: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let sending: readonly string[] = [];

  async function sendGathered(): Promise<void> {
    while (gathered.length > 0) {
      const ids = gathered;
      gathered = [];
      sending = ids;
      try {
        await send(ids);
      } catch (error) {
        // The records stay and run again after their lease: harmless by design, only later.
        logger.warn("Could not send the batched {what} of {count} ids: {error}", {
          what,
          count: ids.length,
          error,
        });
      } finally {
        sending = [];
      }
    }
  }

  function schedule(): void {
    if (gathered.length >= maxIds) start();
    else if (!timer && !running) {
      timer = setTimeout(start, delayMs);
      // A gathered removal never keeps a process alive: flush() is for closing.
      timer.unref();
    }
  }

  function start(): void {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    // One statement at a time: what gathers meanwhile goes once this one is done.
    if (running) return;
    running = sendGathered().finally(() => {
      running = undefined;
      // Gathered between the last send's end and now.
      if (gathered.length > 0) schedule();
    });
  }

  return {
    add(id) {
      gathered.push(id);
      schedule();
    },
    pending: () => [...sending, ...gathered],
    async flush() {
      for (;;) {
        start();
        await running;
        if (gathered.length === 0) return;
      }
    },
  };
}
