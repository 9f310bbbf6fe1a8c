// `node bench/page-after-write.ts`: the in-process CPU of a signed-in page (the home and public
// timelines' services and their rendering to bytes, as bench/page-loop.ts times them) between
// writes, as the bench's probes and its "rendered" ones see it, and right after an unrelated write
// by another account, as a busy server sees every page: a marker (a kind no kept part reads), a
// favourite of a status on the page (acts: its counters and the viewer's flags), and a status
// (statuses: counters, windows, flags). What hydration and the timeline services keep
// (status-shared-parts.ts, viewer-memo.ts, kept-windows.ts, viewer-flags.ts) is kept per version
// of the kinds it reads (ADR 0072; before it, per Storage.version(), which every write moves).
// Each row splits the page into the service (listing, windows, the viewer's own records) and the
// rest (hydration and bytes). Only the page is timed, after the write's promise resolved; what
// the write leaves to do in the background (the json-file journal) may land in it, so read the
// "after a write" figures as upper bounds. Least of five windows of 300 calls after 300 to warm up. `--postgres`: on a
// PostgreSQL database made for the run (bench/lib/pg-database.ts); a write name (`marker`,
// `favourite`, `status`) times that write only.

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
import { benchDatabase, postgresEnv } from "./lib/pg-database.ts";
import { benchEnv, seed } from "./lib/seed.ts";

const usePostgres = process.argv.includes("--postgres");
const only = process.argv.slice(2).find((arg) => arg !== "--postgres");
const database = usePostgres
  ? await benchDatabase(`wren_bench_after_write_${process.pid}`)
  : undefined;
const env = {
  ...benchEnv(await mkdtemp(join(tmpdir(), "wren-busy-")), await freePort()),
  ...(database ? postgresEnv(database.url) : {}),
};
const seeded = await seed(env, { statuses: 1000, authors: 100 });
const config = loadConfig(env);
const storage = await openStorage(config);
const { ctx } = createServices(config, storage);
const viewerId = seeded.viewerId;
const authorAt = (i: number) => seeded.authorIds[i] as string;
/** Another account each, none of them the viewer; the poster is one the viewer does not follow. */
const [favouriter, marker, poster] = [authorAt(1), authorAt(2), authorAt(99)];
const template = await storage.statuses.get(seeded.statusId);
if (!template) throw new Error("the seed's template status is missing");
const now = () => new Date().toISOString();
let n = 0;
/** Another account's marker: a write no page shows. */
const writeMarker = () => {
  n++;
  return storage.markers.put({
    accountId: marker,
    timeline: "home",
    lastReadId: String(1000 + n),
    version: n,
    updatedAt: now(),
  });
};
/** Another account's favourite of the newest public status, and its removal, in turn. */
let favourited = false;
let target = "";
const writeFavourite = async () => {
  favourited = !favourited;
  if (favourited) {
    await storage.favourites.put({
      id: ctx.ids.next(),
      accountId: favouriter,
      targetId: target,
      createdAt: now(),
      uri: null,
    });
  } else await storage.favourites.delete(favouriter, target);
};
/** A public status by an account the viewer does not follow (on the public page, not home). */
const writeStatus = () => {
  const id = ctx.ids.next();
  return storage.statuses.put({
    ...template,
    id,
    accountId: poster,
    conversationId: id,
    uri: `${template.uri}-${id}`,
    url: `${template.url}-${id}`,
  });
};
/** Microseconds of CPU per call: the least of five windows of 300, after 300 to warm up. */
const time = (run: () => Promise<unknown>) => leastCpuPerCall(run, 300, 300);
/**
 * Microseconds of CPU of `run` alone, right after each `write` (untimed): the least of five
 * windows of 300, after 300 to warm up. Timing the page alone rather than taking the write's
 * time off keeps the write's own cost (a json-file write's is ten times a page's) out of it.
 */
async function timeAfter(write: () => Promise<unknown>, run: () => Promise<unknown>) {
  const once = async () => {
    await write();
    const start = process.cpuUsage();
    await run();
    const used = process.cpuUsage(start);
    return used.user + used.system;
  };
  for (let i = 0; i < 300; i++) await once();
  let least = Number.POSITIVE_INFINITY;
  for (let w = 0; w < 5; w++) {
    let sum = 0;
    for (let i = 0; i < 300; i++) sum += await once();
    least = Math.min(least, sum / 300);
  }
  return least;
}

const services = {
  home: () => homeTimeline(ctx, viewerId, { limit: 20 }),
  public: () => publicTimeline(ctx, viewerId, {}, { limit: 20 }),
} as const;
target = (await services.public())[0]?.status.id ?? "";
if (target === "") throw new Error("the public timeline is empty");
const writes = { marker: writeMarker, favourite: writeFavourite, status: writeStatus };
for (const name of ["home", "public"] as const) {
  const service = services[name];
  const page = async () => renderResolvedBytes(ctx, await service(), viewerId, name);
  const quiet = await time(page);
  const quietService = await time(service);
  console.log(
    `${name}: between writes ${quiet.toFixed(1)} µs (service ${quietService.toFixed(1)})`,
  );
  for (const [writeName, write] of Object.entries(writes)) {
    if (only !== undefined && only !== writeName) continue;
    const busy = await timeAfter(write, page);
    const busyService = await timeAfter(write, service);
    console.log(
      `  after ${writeName}: ${busy.toFixed(1)} µs (service ${busyService.toFixed(1)}, hydration and bytes ${(busy - busyService).toFixed(1)})`,
    );
  }
}
await storage.close();
await database?.drop();
