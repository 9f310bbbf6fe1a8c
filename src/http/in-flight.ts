// Requests whose handler is still running, so that a shutdown closes the storage only after
// them. The HTTP server's close() waits for connections, not handlers: a client that hangs up
// mid-request (a load generator stopped, a phone losing its network) leaves its handler running,
// which would then meet a closed storage and fail half-way through its writes.

type Fetch<A extends unknown[]> = (...args: A) => Response | Promise<Response>;

export interface InFlight<A extends unknown[]> {
  /** The handler, counted while it runs. */
  fetch: Fetch<A>;
  /** Resolves once no handler runs, or after `limitMs` (a handler stuck for good). */
  drained(limitMs: number): Promise<boolean>;
}

export function trackInFlight<A extends unknown[]>(handler: Fetch<A>): InFlight<A> {
  let running = 0;
  const waiters = new Set<() => void>();
  const finished = () => {
    running--;
    if (running === 0) for (const wake of waiters) wake();
  };
  return {
    fetch(...args) {
      running++;
      let answer: Response | Promise<Response>;
      try {
        answer = handler(...args);
      } catch (error) {
        finished();
        throw error;
      }
      if (!(answer instanceof Promise)) {
        finished();
        return answer;
      }
      return answer.finally(finished);
    },
    drained(limitMs) {
      if (running === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          resolve(false);
        }, limitMs);
        waiters.add(wake);
      });
    },
  };
}
