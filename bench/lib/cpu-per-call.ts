// The CPU time of one call, for in-process loops (bench/page-loop.ts, bench/page-after-write.ts):
// process CPU (user + system) moves far less with other processes' load than wall-clock time.

/** Microseconds of CPU per call: the least of five windows of `calls` calls after `warm`. */
export async function leastCpuPerCall(
  run: () => Promise<unknown>,
  calls: number,
  warm: number,
): Promise<number> {
  for (let i = 0; i < warm; i++) await run();
  let least = Number.POSITIVE_INFINITY;
  for (let w = 0; w < 5; w++) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) await run();
    const used = process.cpuUsage(start);
    least = Math.min(least, (used.user + used.system) / calls);
  }
  return least;
}
