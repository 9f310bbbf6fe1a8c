// `node bench/create-instructions.ts [--tree DIR]… [--windows N] [--requests N] [--concurrency C]`:
// instructions per created status on json-file, counted by valgrind's callgrind in a `wren serve`
// of each tree (this checkout first), for the whole process and for its main thread alone
// (`--separate-threads`). Creates go `--concurrency` at a time (default 10, so the durable
// writer's batches hold several statuses as under load); after 300 to warm up, each window of
// `--requests` creates is counted between a zeroing and a dump, and the least window is taken
// (the optimising compiler may still be at work in one). Other processes' load does not change
// the counts; repeated runs of one tree still differ by a few per cent (JIT and GC timing).

import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { seedForCreates } from "./lib/create-seed.ts";
import { startWrenServer } from "./lib/processes.ts";

const { values } = parseArgs({
  options: {
    tree: { type: "string", multiple: true, default: [] },
    windows: { type: "string", default: "3" },
    requests: { type: "string", default: "200" },
    concurrency: { type: "string", default: "10" },
    /** Keeps callgrind's files (printed) for callgrind_annotate. */
    keep: { type: "boolean", default: false },
  },
});
const trees = [new URL("..", import.meta.url).pathname, ...(values.tree ?? [])].map((t) =>
  resolve(t),
);
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);

async function count(tree: string): Promise<{ whole: number; main: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), "wren-create-instr-"));
  const outDir = await mkdtemp(join(tmpdir(), "wren-callgrind-"));
  try {
    const { env, probe } = await seedForCreates(dataDir);
    const wren = await startWrenServer(env, {
      tree,
      wrapper: [
        "valgrind",
        "-q",
        "--tool=callgrind",
        "--separate-threads=yes",
        `--callgrind-out-file=${outDir}/out.%p`,
      ],
    });
    const pid = String(wren.process.pid);
    const create = async () => {
      const res = await fetch(`${env.WREN_PUBLIC_URL}${probe.path}`, {
        method: probe.method,
        headers: probe.headers ?? {},
        body: probe.body ?? null,
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`create answered ${res.status}`);
    };
    const run = async (n: number) => {
      let left = n;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (left-- > 0) await create();
        }),
      );
    };
    await run(300);
    for (let w = 0; w < Number(values.windows); w++) {
      execFileSync("callgrind_control", ["-z", pid], { stdio: "ignore" });
      await run(requests);
      execFileSync("callgrind_control", ["-d", `window${w}`, pid], { stdio: "ignore" });
    }
    await wren.stop();
    // One file per thread and dump: thread 1 is the main thread.
    const windows = new Map<string, { whole: number; main: number }>();
    for (const file of await readdir(outDir)) {
      const text = await readFile(join(outDir, file), "utf8");
      const window = /^desc: Trigger: .*\b(window\d+)\s*$/m.exec(text)?.[1];
      const total = (/^summary: (\d+)/m.exec(text) ?? /^totals: (\d+)/m.exec(text))?.[1];
      const thread = /^thread: (\d+)/m.exec(text)?.[1];
      if (window === undefined || total === undefined) continue;
      const w = windows.get(window) ?? { whole: 0, main: 0 };
      w.whole += Number(total);
      if (thread === "1") w.main += Number(total);
      windows.set(window, w);
    }
    const list = [...windows.values()];
    return {
      whole: Math.min(...list.map((w) => w.whole)) / requests,
      main: Math.min(...list.map((w) => w.main)) / requests,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    if (values.keep) process.stdout.write(`callgrind files: ${outDir}\n`);
    else await rm(outDir, { recursive: true, force: true });
  }
}

for (const tree of trees) {
  const { whole, main } = await count(tree);
  process.stdout.write(
    `${tree}: ${(whole / 1e6).toFixed(3)}M instructions per create, main thread ${(main / 1e6).toFixed(3)}M\n`,
  );
}
