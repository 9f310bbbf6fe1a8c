// `node bench/snapshot-stall.ts [count...]`: the longest event-loop stall while the status
// snapshot is written from summaries in directory (random) order, as after a start that read
// every file (issue 15). Nothing else runs: a timer ticking every millisecond measures how long
// the loop was away.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeStatus } from "../src/storage/contract/fixtures.ts";
import { writeSnapshot } from "../src/storage/json-file/status-snapshot.ts";
import { type StatusSummary, summarize } from "../src/storage/json-file/status-summary.ts";

const counts = process.argv.slice(2).map(Number);
for (const count of counts.length > 0 ? counts : [200_000, 1_000_000]) {
  const summaries: StatusSummary[] = [];
  const base = 7_000_000_000_000_000_000n;
  for (let n = 0; n < count; n++) {
    const id = (base + BigInt(Math.floor(Math.random() * 1e15))).toString();
    summaries.push(summarize(makeStatus({ id, accountId: String(1 + (n % 100)), tags: [] })));
  }
  const dir = await mkdtemp(join(tmpdir(), "wren-stall-"));
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await writeSnapshot(dir, summaries, 1);
  const total = performance.now() - started;
  clearInterval(timer);
  longest = Math.max(longest, performance.now() - last);
  process.stdout.write(
    `${count} summaries: snapshot written in ${total.toFixed(0)} ms, longest stall ${longest.toFixed(0)} ms\n`,
  );
  await rm(dir, { recursive: true, force: true });
}
