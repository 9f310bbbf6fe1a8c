// `npm run test:soak`: mixed load against a child `wren serve` for WREN_SOAK_SECONDS (default
// 600), sampling its resident memory (/proc/<pid>/status) and the latency of a trivial endpoint
// (GET /api/v1/instance, answered from memory) as the stand-in for event-loop delay: a blocked
// or starved loop shows there first. Prints a report by interval (WREN_SOAK_INTERVAL_SECONDS,
// default 60) and fails on any 5xx or failed connection, or if memory grows steadily (the last
// interval's median RSS above 1.5× the second interval's).

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/server.ts";
import { residentKiB, seedUsers, spawnWren } from "../helpers/wren-process.ts";
import { type Outcome, runLoad } from "./load.ts";

const seconds = Number(process.env.WREN_SOAK_SECONDS ?? 600);
const intervalSeconds = Number(process.env.WREN_SOAK_INTERVAL_SECONDS ?? 60);
const clients = Number(process.env.WREN_SOAK_CLIENTS ?? 4);
const writesPerSecond = Number(process.env.WREN_SOAK_WRITES_PER_SECOND ?? 20);
const GROWTH_LIMIT = 1.5;

interface Interval {
  requests: number;
  byStatus: Map<number, number>;
  probeMs: number[];
  rssKiB: number[];
}

const quantile = (values: readonly number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

const dataDir = await mkdtemp(join(tmpdir(), "wren-soak-"));
const names = Array.from({ length: 8 }, (_, i) => `soak${i}`);
const users = await seedUsers(dataDir, names);
const server = await spawnWren(dataDir, await freePort());
console.log(
  `soak: ${seconds} s, ${clients} clients (a quarter writing, ≤ ${writesPerSecond} writes/s), ` +
    `report every ${intervalSeconds} s, wren pid ${server.pid}`,
);

const started = Date.now();
const until = started + seconds * 1000;
const intervals: Interval[] = [];
const intervalOf = (at: number): Interval => {
  const index = Math.min(
    Math.floor((at - started) / (intervalSeconds * 1000)),
    Math.ceil(seconds / intervalSeconds) - 1,
  );
  for (let i = intervals.length; i <= index; i++) {
    intervals.push({ requests: 0, byStatus: new Map(), probeMs: [], rssKiB: [] });
  }
  return intervals[index] as Interval;
};
const failures = new Map<string, number>();

const record = (outcome: Outcome) => {
  const interval = intervalOf(outcome.at);
  interval.requests++;
  interval.byStatus.set(outcome.status, (interval.byStatus.get(outcome.status) ?? 0) + 1);
  if (outcome.status >= 500 || outcome.status === 0) {
    const key = `${outcome.route} → ${outcome.status || "connection failed"}`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
  }
};

const probe = async () => {
  while (Date.now() < until) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${server.url}/api/v1/instance`);
      await res.arrayBuffer();
      intervalOf(Date.now()).probeMs.push(performance.now() - t0);
      if (res.status !== 200) record({ at: Date.now(), route: "probe", status: res.status, ms: 0 });
    } catch {
      record({ at: Date.now(), route: "probe", status: 0, ms: 0 });
    }
    await new Promise((r) => setTimeout(r, 200));
  }
};

const sampleMemory = async () => {
  while (Date.now() < until) {
    const kib = await residentKiB(server.pid);
    if (kib !== undefined) intervalOf(Date.now()).rssKiB.push(kib);
    await new Promise((r) => setTimeout(r, 1000));
  }
};

let exitCode = 0;
try {
  await Promise.all([
    runLoad({ url: server.url, users, clients, writesPerSecond, until, record }),
    probe(),
    sampleMemory(),
  ]);

  console.log(
    "\ninterval  requests  req/s   2xx%   probe p50/p95/p99/max ms      RSS median/max MB",
  );
  intervals.forEach((interval, i) => {
    const ok = [...interval.byStatus].filter(([s]) => s >= 200 && s < 300);
    const okCount = ok.reduce((n, [, c]) => n + c, 0);
    const p = (q: number) => fmt(quantile(interval.probeMs, q));
    console.log(
      `${String(i + 1).padStart(8)}  ${String(interval.requests).padStart(8)}  ` +
        `${fmt(interval.requests / intervalSeconds, 0).padStart(5)}  ` +
        `${fmt((100 * okCount) / Math.max(1, interval.requests)).padStart(5)}  ` +
        `${`${p(0.5)}/${p(0.95)}/${p(0.99)}/${fmt(Math.max(...interval.probeMs))}`.padEnd(28)}  ` +
        `${fmt(quantile(interval.rssKiB, 0.5) / 1024)}/${fmt(Math.max(...interval.rssKiB) / 1024)}`,
    );
  });
  const allRss = intervals.flatMap((i) => i.rssKiB);
  const total = intervals.reduce((n, i) => n + i.requests, 0);
  const statuses = new Map<number, number>();
  for (const interval of intervals) {
    for (const [s, c] of interval.byStatus) statuses.set(s, (statuses.get(s) ?? 0) + c);
  }
  console.log(
    `\n${total} requests; by status: ${[...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, c]) => `${s}: ${c}`)
      .join(", ")}`,
  );
  console.log(
    `RSS start ${fmt((allRss[0] ?? Number.NaN) / 1024)} MB, end ${fmt((allRss.at(-1) ?? Number.NaN) / 1024)} MB, ` +
      `max ${fmt(Math.max(...allRss) / 1024)} MB`,
  );

  const problems: string[] = [...failures].map(([k, n]) => `${n}× ${k}`);
  if (intervals.length >= 3) {
    const second = quantile((intervals[1] as Interval).rssKiB, 0.5);
    const last = quantile((intervals.at(-1) as Interval).rssKiB, 0.5);
    const ratio = last / second;
    console.log(`memory: last interval median / second interval median = ${fmt(ratio, 2)}`);
    if (ratio > GROWTH_LIMIT) problems.push(`resident memory grew ${fmt(ratio, 2)}×`);
  } else {
    console.log("memory trend: too few intervals to judge (need 3)");
  }
  if (problems.length > 0) {
    console.error(`\nsoak FAILED:\n  ${problems.join("\n  ")}`);
    exitCode = 1;
  } else {
    console.log("\nsoak passed");
  }
} finally {
  const code = await server.kill("SIGTERM");
  if (code !== 0) {
    console.error(`wren serve stopped with ${code}: ${server.stderr().slice(-2000)}`);
    exitCode = 1;
  }
  await rm(dataDir, { recursive: true, force: true });
}
process.exitCode = exitCode;
