// `node bench/create-stages.ts [--tree DIR] [--posts N] [--rounds N]`: the main thread's CPU per
// created status on json-file without HTTP, stage by stage, in this process: the service's
// post alone (`postStatus`, storage included), and with the rendered answer
// (`renderPostedStatusText`), `--concurrency` posts in flight (default 50) after 1,000 to warm up. What the server's main
// thread spends per create beyond these (bench/create-fsyncs.ts) is the HTTP layer's.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { seedForCreates } from "./lib/create-seed.ts";

const { values } = parseArgs({
  options: {
    tree: { type: "string", default: new URL("..", import.meta.url).pathname },
    posts: { type: "string", default: "3000" },
    rounds: { type: "string", default: "3" },
    concurrency: { type: "string", default: "50" },
  },
});
const tree = resolve(values.tree);
const dataDir = await mkdtemp(join(tmpdir(), "wren-create-stages-"));
const { env, seeded } = await seedForCreates(dataDir);
const { loadConfig } = await import(join(tree, "src/config/load.ts"));
const { startWren } = await import(join(tree, "src/main.ts"));
const { postStatus } = await import(join(tree, "src/services/statuses/create-status.ts"));
const { renderPostedStatusText } = await import(join(tree, "src/http/mastodon/status-json.ts"));
const wren = await startWren(loadConfig(env));
const { ctx } = wren;
const input = {
  accountId: seeded.viewerId,
  applicationId: null,
  text: "Benchmarking Wren, one post at a time #bench",
};
const stages = {
  post: async () => {
    await postStatus(ctx, input);
  },
  "post and answer": async () => {
    await renderPostedStatusText(ctx, await postStatus(ctx, input), seeded.viewerId);
  },
};
async function run(stage: () => Promise<void>, posts: number): Promise<number> {
  const start = process.threadCpuUsage();
  // `--concurrency` posts in flight at any time, each started as another ends (as clients do).
  let left = posts;
  const client = async () => {
    while (left-- > 0) await stage();
  };
  await Promise.all(Array.from({ length: Number(values.concurrency) }, client));
  const used = process.threadCpuUsage(start);
  return (used.user + used.system) / posts;
}
for (const stage of Object.values(stages)) await run(stage, 1000);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, stage] of Object.entries(stages)) {
    const us = await run(stage, Number(values.posts));
    process.stdout.write(`${name}: ${Math.round(us)} µs main-thread CPU per create\n`);
  }
}
await wren.close();
await rm(dataDir, { recursive: true, force: true });
process.exit(0);
