// Memory of an account archive's build: an account with many statuses and media files (random
// bytes, so the zip is as large as the files) is archived by buildArchive in a real Wren
// (json-file, local media directory), and the process's resident set and heap are sampled every
// 20 ms during the build. Prints the peaks over the baseline before the build and the archive's
// size. Run it in the tree to measure (before/after: check the older tree out elsewhere, link
// node_modules, and run its copy of this file).
//
//   node bench/archive-memory.ts [--statuses N] [--media N] [--file-mb N]

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildArchive } from "../src/services/archives/build-archive.ts";
import { requestArchive } from "../src/services/archives/request-archive.ts";
import { createUserWithToken } from "../test/helpers/accounts.ts";
import { seedArchiveAccount } from "../test/helpers/archive-account.ts";
import { startTestServer } from "../test/helpers/server.ts";

const { values } = parseArgs({
  options: {
    statuses: { type: "string", default: "2000" },
    media: { type: "string", default: "60" },
    "file-mb": { type: "string", default: "2" },
  },
});
const counts = {
  statuses: Number(values.statuses),
  media: Number(values.media),
  fileBytes: Number(values["file-mb"]) * 1024 * 1024,
};

const dataDir = await mkdtemp(join(tmpdir(), "wren-archive-bench-"));
const server = await startTestServer({}, { dataDir });
try {
  await server.wren.jobs.stop();
  const ctx = server.wren.ctx;
  const user = await createUserWithToken(server, "bench");
  await seedArchiveAccount(ctx, user.account.id, counts);
  const { id } = await requestArchive(ctx, user.account.id, { byOperator: true });
  globalThis.gc?.();
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed + base.external + base.arrayBuffers;
  const sample = setInterval(() => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed + now.external + now.arrayBuffers);
  }, 20);
  const built = await buildArchive(ctx, user.account.id, id);
  clearInterval(sample);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(
    JSON.stringify({
      ...counts,
      archiveMB: mb(built?.size ?? 0),
      peakRssGrowthMB: mb(rss - base.rss),
      peakHeapExternalGrowthMB: mb(heap - (base.heapUsed + base.external + base.arrayBuffers)),
    }),
  );
} finally {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
