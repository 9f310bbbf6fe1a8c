// `npm run test:crash`: many kill cycles (WREN_CRASH_CYCLES, default 20) with a seed printed
// first, so a failing run can be replayed with WREN_CRASH_SEED. WREN_CRASH_VOTES=0 leaves poll
// votes out of the mix (see CrashOptions.votes).

import { runCrashCycles } from "./cycles.ts";

const cycles = Number(process.env.WREN_CRASH_CYCLES ?? 20);
const votes = process.env.WREN_CRASH_VOTES !== "0";
const seed = Number(process.env.WREN_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`crash suite: ${cycles} cycles, seed ${seed}${votes ? "" : ", without poll votes"}`);
const started = Date.now();
try {
  const summary = await runCrashCycles({
    cycles,
    users: 6,
    seed,
    maxRunMs: 1500,
    votes,
    log: (line) => console.log(line),
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `crash suite passed in ${seconds} s: ${summary.cycles} SIGKILLs, ` +
      `${summary.acknowledged} acknowledged writes (${summary.statuses} statuses), ` +
      `${summary.shortPollsClosed} polls closed by the queue across restarts, ` +
      `${summary.retriedPosts} cut-off posts retried with their Idempotency-Key (each stored once), ` +
      `${summary.pidReuseRestarts} restarts on a lock naming their own pid`,
  );
} catch (error) {
  console.error(`crash suite FAILED (seed ${seed}): ${(error as Error).message}`);
  process.exitCode = 1;
}
