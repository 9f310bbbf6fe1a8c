// `node bench/page-loop.ts [--statuses N] [--calls N]`: the in-process time of a signed-in
// page's work, without HTTP: each timeline service (listing, resolving, blocks, mutes, visibility,
// filters) and the rendering of its page (hydration and text), timed apart, for the public and
// home timelines of the bench's seeded viewer; and the rendering to the bytes answered
// (`renderResolvedBytes`, or, in trees without it, the text encoded as the routes did). The least of five windows of `calls` calls after
// 500 to warm up: steadier than anything measured through a socket on a shared machine, and it
// shows where a page's CPU goes (what the server adds on top is HTTP, routing and middleware).

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/load.ts";
import * as statusJson from "../src/http/mastodon/status-json.ts";
import { homeTimeline } from "../src/services/timelines/home.ts";
import { publicTimeline } from "../src/services/timelines/public.ts";
import type { ResolvedEntry } from "../src/services/timelines/resolve-entries.ts";
import { createServices } from "../src/wiring/services.ts";
import { openStorage } from "../src/wiring/storage.ts";
import { freePort } from "../test/helpers/server.ts";
import { leastCpuPerCall } from "./lib/cpu-per-call.ts";
import { benchEnv, seed } from "./lib/seed.ts";

const { values } = parseArgs({
  options: {
    statuses: { type: "string", default: "1000" },
    calls: { type: "string", default: "300" },
  },
});
const env = benchEnv(await mkdtemp(join(tmpdir(), "wren-page-loop-")), await freePort());
const seeded = await seed(env, { statuses: Number(values.statuses), authors: 100 });
const config = loadConfig(env);
const storage = await openStorage(config);
const { ctx } = createServices(config, storage);
const viewerId = seeded.viewerId;
const page = { limit: 20 };
const calls = Number(values.calls);

/** Microseconds per call: the least of five windows, after 500 calls to warm up. */
const time = (run: () => Promise<unknown>) => leastCpuPerCall(run, calls, 500);

const { renderResolvedText } = statusJson;
/** What a timeline route answers: kept encoded parts where the tree has them. */
const renderBytes: (...args: Parameters<typeof renderResolvedText>) => Promise<Uint8Array> =
  "renderResolvedBytes" in statusJson
    ? (statusJson.renderResolvedBytes as (
        ...args: Parameters<typeof renderResolvedText>
      ) => Promise<Uint8Array>)
    : async (...args) => Buffer.from(await renderResolvedText(...args));

const timelines: [string, () => Promise<ResolvedEntry[]>, "public" | "home"][] = [
  ["public", () => publicTimeline(ctx, viewerId, {}, page), "public"],
  ["home", () => homeTimeline(ctx, viewerId, page), "home"],
];
try {
  for (const [name, service, context] of timelines) {
    const entries = await service();
    const serviceUs = await time(service);
    const renderUs = await time(() => renderResolvedText(ctx, entries, viewerId, context));
    const bytesUs = await time(() => renderBytes(ctx, entries, viewerId, context));
    process.stdout.write(
      `${name}: ${entries.length} statuses, service ${serviceUs.toFixed(1)} µs, ` +
        `rendering ${renderUs.toFixed(1)} µs, to bytes ${bytesUs.toFixed(1)} µs CPU per call\n`,
    );
  }
} finally {
  await storage.close();
}
