// Runs work one at a time per key inside this process, so two identical requests arriving
// together (a double tap on "boost") cannot both see "not yet" and both write. The json-file
// coordination is exactly this (one process owns its data directory); PostgreSQL's queues here
// first, so a process holds at most one database lease per key and its waiters do not poll.

export type WithLock = <T>(key: string, work: () => Promise<T>) => Promise<T>;

export function createKeyedLock(): WithLock {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    // The chain continues whether `work` fails or not; the map forgets the key once idle.
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
