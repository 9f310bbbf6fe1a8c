// `node bench/page-after-write.ts`: the in-process CPU of a signed-in page (the home and public
// timelines' services and their rendering to bytes, as bench/page-loop.ts times them) between
// writes, as the bench's probes and its "rendered" ones see it, and right after an unrelated write
// (another account's marker), as a busy server sees every page: a write moves Storage.version(),
// which drops what hydration and the timeline services keep per version (status-shared-parts.ts,
// viewer-memo.ts, kept-windows.ts, viewer-flags.ts). The write's own CPU, timed alone, is taken
// off; what it leaves to do in the background (the json-file journal) is not, so read the "after a
// write" figure as an upper bound. Least of five windows of 300 calls after 300 to warm up;
// json-file only.

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/load.ts";
import { renderResolvedBytes } from "../src/http/mastodon/status-json.ts";
import { homeTimeline } from "../src/services/timelines/home.ts";
import { publicTimeline } from "../src/services/timelines/public.ts";
import { createServices } from "../src/wiring/services.ts";
import { openStorage } from "../src/wiring/storage.ts";
import { freePort } from "../test/helpers/server.ts";
import { leastCpuPerCall } from "./lib/cpu-per-call.ts";
import { benchEnv, seed } from "./lib/seed.ts";

const env = benchEnv(await mkdtemp(join(tmpdir(), "wren-busy-")), await freePort());
const seeded = await seed(env, { statuses: 1000, authors: 100 });
const config = loadConfig(env);
const storage = await openStorage(config);
const { ctx } = createServices(config, storage);
const viewerId = seeded.viewerId;
let n = 0;
/** Another account's marker: a write no page shows, which still moves the version. */
const write = () => {
  n++;
  return storage.markers.put({
    accountId: seeded.authorIds[0] as string,
    timeline: "home",
    lastReadId: String(1000 + n),
    version: n,
    updatedAt: new Date().toISOString(),
  });
};
/** Microseconds of CPU per call: the least of five windows of 300, after 300 to warm up. */
const time = (run: () => Promise<unknown>) => leastCpuPerCall(run, 300, 300);

for (const [name, page] of [
  [
    "home",
    async () =>
      renderResolvedBytes(ctx, await homeTimeline(ctx, viewerId, { limit: 20 }), viewerId, "home"),
  ],
  [
    "public",
    async () =>
      renderResolvedBytes(
        ctx,
        await publicTimeline(ctx, viewerId, {}, { limit: 20 }),
        viewerId,
        "public",
      ),
  ],
] as const) {
  const v0 = storage.version();
  await write();
  const moved = storage.version() !== v0;
  const quiet = await time(page);
  const writeOnly = await time(write);
  const busy = await time(async () => {
    await write();
    await page();
  });
  console.log(
    `${name}: version moves on a marker write: ${moved}; page between writes ${quiet.toFixed(1)} µs, after a write ${(busy - writeOnly).toFixed(1)} µs (write alone ${writeOnly.toFixed(1)} µs)`,
  );
}
await storage.close();
