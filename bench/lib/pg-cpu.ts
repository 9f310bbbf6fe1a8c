// The database server's CPU, read from /proc: what a PostgreSQL bench charges to the database's
// side beside Wren's own process (bench/pg-writes.ts, bench/inbox.ts --postgres).

import { readdir, readFile } from "node:fs/promises";
import { cpuMilliseconds } from "./processes.ts";

/**
 * CPU milliseconds used so far by every postgres server process (the database's side), and by
 * those serving `database` alone: on a machine shared with other sessions' databases the whole
 * server's count carries their work too, the backends' (titled with their database) do not.
 */
export async function postgresCpu(database: string): Promise<{ all: number; ours: number }> {
  let all = 0;
  let ours = 0;
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const comm = await readFile(`/proc/${pid}/comm`, "utf8").catch(() => "");
    if (comm.trim() !== "postgres") continue;
    const cpu = await cpuMilliseconds(Number(pid)).catch(() => 0);
    all += cpu;
    const title = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (title.includes(` ${database} `)) ours += cpu;
  }
  return { all, ours };
}
