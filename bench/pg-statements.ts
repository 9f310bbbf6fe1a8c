// `node bench/pg-statements.ts [--after-write] [probe…]`: the SQL statements one request of each
// read and write scenario sends to PostgreSQL, in order, read from the server's log
// (log_statement = all, set on the bench database only). Where bench/pg-round-trips.ts says how
// many, this says which. `--after-write`: the viewer posts a followers-only status between the
// two requests of each probe (its statements not counted), so the request measured follows a
// write, as under a steady stream of posts, instead of repeating one just answered.
// Needs the local server's log at /var/log/postgresql/ (Debian's layout).

import { mkdtemp, open, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { freePort } from "../test/helpers/server.ts";
import type { Probe } from "./lib/compare.ts";
import { benchDatabase, postgresEnv } from "./lib/pg-database.ts";
import { startWrenServer } from "./lib/processes.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { readProbes } from "./scenarios/reads.ts";
import { writeProbes } from "./scenarios/writes.ts";

const afterWrite = process.argv.includes("--after-write");
const wanted = process.argv.slice(2).filter((arg) => arg !== "--after-write");
const logDir = "/var/log/postgresql";
const logFile = join(logDir, (await readdir(logDir)).find((f) => f.endsWith(".log")) as string);
const db = await benchDatabase(`wren_bench_statements_${process.pid}`);
const name = new URL(db.url).pathname.slice(1);
const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-statements-"));

async function readFrom(offset: number): Promise<string> {
  const size = (await stat(logFile)).size;
  const handle = await open(logFile, "r");
  try {
    const buffer = Buffer.alloc(size - offset);
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString("utf8");
  } finally {
    await handle.close();
  }
}

try {
  const env = { ...benchEnv(dataDir, await freePort()), ...postgresEnv(db.url) };
  const seeded = await seed(env, {
    statuses: 1_000,
    authors: 100,
    ownStatuses: 4,
    followTargets: 4,
  });
  const admin = postgres(db.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`alter database ${name} set log_statement = 'all'`);
  await admin.end();
  const wren = await startWrenServer(env);
  try {
    const url = env.WREN_PUBLIC_URL as string;
    const probes: Probe[] = [...readProbes(seeded), ...writeProbes(seeded)].filter(
      (p) => wanted.length === 0 || wanted.includes(p.name),
    );
    for (const probe of probes) {
      const request = async (n: number) => {
        const res = await fetch(`${url}${probe.paths?.[n] ?? probe.path}`, {
          method: probe.method,
          headers: probe.headers ?? {},
          ...(probe.body === undefined ? {} : { body: probe.body }),
        });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${probe.name}: ${res.status}`);
      };
      await request(0);
      if (afterWrite) {
        const res = await fetch(`${url}/api/v1/statuses`, {
          method: "POST",
          headers: { authorization: `Bearer ${seeded.token}`, "content-type": "application/json" },
          body: JSON.stringify({ status: "Between two reads", visibility: "private" }),
        });
        if (!res.ok) throw new Error(`the write between: ${res.status}`);
        await res.arrayBuffer();
      }
      await new Promise((r) => setTimeout(r, 500));
      const from = (await stat(logFile)).size;
      await request(1);
      await new Promise((r) => setTimeout(r, 500));
      // A log entry starts with a timestamp; a statement's further lines are continuations.
      const entries: string[] = [];
      for (const line of (await readFrom(from)).split("\n")) {
        if (/^\d{4}-\d\d-\d\d /.test(line)) entries.push(line);
        else if (entries.length > 0) entries[entries.length - 1] += ` ${line}`;
      }
      // The server's log is shared: other sessions' bench databases may log their statements too.
      const ours = entries.filter((entry) => entry.includes(`@${name} `));
      const lines = ours.flatMap((entry) => {
        const m = /(?:statement|execute [^:]*): (.*)$/.exec(entry);
        return m ? [(m[1] as string).replace(/\s+/g, " ").trim().slice(0, 200)] : [];
      });
      process.stdout.write(`\n## ${probe.name}: ${lines.length} statements\n`);
      for (const l of lines) process.stdout.write(`  ${l}\n`);
    }
  } finally {
    await wren.stop();
  }
} finally {
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}
