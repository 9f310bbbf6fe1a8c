// Gates on the durable writer's changes (JobStore.putAround, ADR 0044): inside `run(gate, …)`
// every file the writer changes waits until `gate` resolves, and fails if it rejects. An event's
// record is appended to the job journal while the write it announces goes ahead, so the record's
// fsync and the write's first steps (the status journal's line) overlap; only the write's
// changes of files wait for it. The scope follows the write's async calls (AsyncLocalStorage),
// as the PostgreSQL outbox's does. A gate must never wait for the durable writer itself: the
// batch that holds a gated change waits for the gate, and would wait for ever.

import { AsyncLocalStorage } from "node:async_hooks";

export class WriteGates {
  readonly #scope = new AsyncLocalStorage<Promise<void>>();

  /** Runs `write` with its changes held until `gate` (and any enclosing gate) resolved. */
  run<T>(gate: Promise<void>, write: () => Promise<T>): Promise<T> {
    const outer = this.#scope.getStore();
    const both = outer === undefined ? gate : Promise.all([outer, gate]).then(() => {});
    // Nobody may be left with an unhandled rejection: the writes that wait report it.
    both.catch(() => {});
    return this.#scope.run(both, write);
  }

  /** The gate the current change must wait for, if any. */
  current(): Promise<void> | undefined {
    return this.#scope.getStore();
  }
}
