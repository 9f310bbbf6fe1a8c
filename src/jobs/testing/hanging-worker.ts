// Tests only: a worker process that claims jobs from a PostgreSQL database and hangs in every
// handler, renewing its claims for as long as it lives, so a test can SIGKILL it mid-job.
// Usage: node hanging-worker.ts <database-url> <lease-ms>. Prints "started <job id>" per job.

import { systemClock } from "../../domain/clock.ts";
import { openPostgresStorage } from "../../storage/postgres/index.ts";
import { createJobRunner } from "../runner.ts";

const [url, leaseMs] = process.argv.slice(2);
if (!url || !leaseMs) throw new Error("usage: hanging-worker.ts <database-url> <lease-ms>");
const storage = await openPostgresStorage({ url, poolMax: 2 });
const runner = createJobRunner(storage.jobs, systemClock, { leaseMs: Number(leaseMs) });
runner.register("work", async (_payload, job) => {
  process.stdout.write(`started ${job.id}\n`);
  await new Promise(() => {});
});
runner.start();
// The runner's timers are unref'd: this one keeps the process alive until it is killed.
setInterval(() => {}, 60_000);
