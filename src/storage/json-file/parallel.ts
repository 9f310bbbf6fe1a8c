// Bounded parallelism for file work: opening thousands of files at once (a large group commit,
// a start-up load) would exhaust file descriptors, so at most `limit` run at a time.

/**
 * Calls `fn` for every item with at most `limit` calls in flight. Rejects with the first error,
 * after the calls already started have settled; items not yet started are skipped.
 */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (error) {
        if (!failed) firstError = error;
        failed = true;
      }
    }
  };
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker);
  await Promise.all(workers);
  if (failed) throw firstError;
}
