// Calls still running when the storage closes. postgres.js's `end()` waits only for the queries
// its connections already carry: a query still queued for a free connection would reconnect and
// run after close() resolved, writing behind the caller's back. So every store call is counted
// and close() first waits for them to settle.

export class InFlight {
  #count = 0;
  #waiters: (() => void)[] = [];

  track<T>(promise: Promise<T>): Promise<T> {
    this.#count++;
    const done = () => {
      if (--this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
    };
    promise.then(done, done);
    return promise;
  }

  /** Resolves once no tracked call is running, or after `timeoutMs` whatever runs. */
  idle(timeoutMs: number): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * What a call must wait for before it runs (outbox.ts: the job its write carries), given the
 * method's name; undefined to run at once.
 */
export type CallGate = (method: string) => Promise<void> | undefined;

/**
 * The store with every method call that returns a promise counted by `inFlight`, each run once
 * `gate` lets it (the call then answers a promise).
 */
export function tracked<S extends object>(store: S, inFlight: InFlight, gate?: CallGate): S {
  // One wrapper per method, made on first use: a page calls the stores dozens of times, and a
  // closure made per call was a measurable share of a read answered from the memos.
  type Method = (...args: unknown[]) => unknown;
  const wrappers = new Map<string | symbol, { value: Method; wrapper: Method }>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const method = value as Method;
      const made = wrappers.get(property);
      if (made?.value === method) return made.wrapper;
      const name = String(property);
      const wrapper = (...args: unknown[]) => {
        const waiting = gate?.(name);
        const result = waiting
          ? waiting.then(() => method.apply(target, args))
          : method.apply(target, args);
        return result instanceof Promise ? inFlight.track(result) : result;
      };
      wrappers.set(property, { value: method, wrapper });
      return wrapper;
    },
  });
}
