// Runs check-then-write sequences one at a time per key inside this process, so two identical
// requests arriving together (a double tap on "boost") cannot both see "not yet" and both write.
// Edge stores already keep one edge per pair; reblogs are statuses and need this.

const tails = new Map<string, Promise<unknown>>();

export async function withKeyLock<T>(key: string, work: () => Promise<T>): Promise<T> {
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
}
