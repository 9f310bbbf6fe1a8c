// `node bench/startup.ts <data-dir> [runs]`: start-up time and resident memory of `wren serve`
// on an already seeded data directory (bench/seed-dir.ts), measured like `npm run bench` does,
// then a graceful stop (which writes the json-file backend's start-up snapshot, ADR 6).

import { freePort } from "../test/helpers/server.ts";
import { residentMegabytes, startWrenServer } from "./lib/processes.ts";
import { benchEnv } from "./lib/seed.ts";

const [dir, runs = "1"] = process.argv.slice(2);
if (dir === undefined) {
  process.stderr.write("usage: node bench/startup.ts <data-dir> [runs]\n");
  process.exit(2);
}

for (let run = 0; run < Number(runs); run++) {
  const env = benchEnv(dir, await freePort());
  const started = performance.now();
  const wren = await startWrenServer(env);
  const startup = (performance.now() - started) / 1000;
  const resident = await residentMegabytes(wren.process.pid as number);
  const stopping = performance.now();
  await wren.stop();
  const stop = (performance.now() - stopping) / 1000;
  process.stdout.write(
    `start-up ${startup.toFixed(1)} s, resident ${resident.toFixed(0)} MB, stop ${stop.toFixed(1)} s\n`,
  );
}
