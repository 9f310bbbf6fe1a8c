// `npm run test:fuzz`: the fuzz properties of test/fuzz with many more runs (WREN_FUZZ_RUNS,
// default 1000 per property) and a random seed, printed so a failure can be replayed with
// WREN_FUZZ_SEED.

import { spawn } from "node:child_process";
import { join } from "node:path";

const runs = process.env.WREN_FUZZ_RUNS ?? "1000";
const seed = process.env.WREN_FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
console.log(`fuzz: ${runs} runs per property, seed ${seed} (replay: WREN_FUZZ_SEED=${seed})`);

const here = import.meta.dirname;
const files = ["api.test.ts", "inbox.test.ts"].map((name) => join(here, name));
const child = spawn(process.execPath, ["--test", "--test-concurrency=1", ...files], {
  env: { ...process.env, WREN_FUZZ_RUNS: runs, WREN_FUZZ_SEED: seed },
  stdio: "inherit",
});
child.on("exit", (code) => {
  if (code !== 0) console.error(`fuzz FAILED (seed ${seed})`);
  process.exitCode = code ?? 1;
});
