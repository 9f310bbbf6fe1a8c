// Calls asked for in one turn of the event loop run together and settle together, in one later
// turn. The staged status writes (ADR 0065) use it for their temporary files and renames: when
// each caller went on as soon as its own call finished, the requests that had come in together
// drifted apart, each then starting its next step (the journal's line, the next request's job
// record) alone, and every batch downstream held one or two writes, paying its fdatasync and
// hand-offs for them alone. Settling together keeps the group whole from step to step.

import { forEachLimit } from "./parallel.ts";

interface Call {
  run(): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class Together {
  #queue: Call[] = [];
  readonly #limit: number;

  /** `limit`: calls in flight at once (each may hold a file descriptor). */
  constructor(limit = 64) {
    this.#limit = limit;
  }

  call<T>(run: () => Promise<T>): Promise<T> {
    const { promise, resolve, reject } = Promise.withResolvers<T>();
    this.#queue.push({ run, resolve: resolve as (value: unknown) => void, reject });
    if (this.#queue.length === 1) setImmediate(() => void this.#flush());
    return promise;
  }

  async #flush(): Promise<void> {
    const calls = this.#queue.splice(0);
    const settled = new Map<Call, { ok: boolean; value: unknown }>();
    await forEachLimit(calls, this.#limit, async (call) => {
      try {
        settled.set(call, { ok: true, value: await call.run() });
      } catch (error) {
        settled.set(call, { ok: false, value: error });
      }
    });
    for (const call of calls) {
      const outcome = settled.get(call);
      if (outcome?.ok) call.resolve(outcome.value);
      else call.reject(outcome?.value);
    }
  }
}
