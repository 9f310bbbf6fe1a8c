// Where the next load of a write probe starts in its paths. Every load is its own process, whose
// autocannon begins again at the first path: without a cursor, each round (and a warm-up before
// them) favourited or followed the same targets as the one before, and from the second load on
// measured Wren answering "already done" instead of a write.

/** The paths from `offset` on, then the ones before it: every path once. */
export function rotated(paths: readonly string[], offset: number): string[] {
  if (paths.length === 0) return [];
  const start = ((offset % paths.length) + paths.length) % paths.length;
  return [...paths.slice(start), ...paths.slice(0, start)];
}

export class PathCursors {
  readonly #used = new Map<object, number>();

  /**
   * The paths for load `part` of `parts` run at once against one probe: the parts start apart,
   * from where the probe's earlier loads stopped.
   */
  paths(probe: object, all: readonly string[], part = 0, parts = 1): string[] {
    const share = Math.floor(all.length / Math.max(parts, 1));
    return rotated(all, (this.#used.get(probe) ?? 0) + part * share);
  }

  /** Moves the probe's cursor past the requests its last load made. */
  advance(probe: object, requests: number): void {
    this.#used.set(probe, (this.#used.get(probe) ?? 0) + requests);
  }
}
