// `node bench/streaming.ts [--connections 10000] [--subscribers 1000] [--rounds 5]
// [--data-dir DIR]`: the
// streaming API of a `wren serve` child process on a fresh json-file data directory (issue 18):
//  1. idle WebSockets: resident memory of the server per open connection (each subscribed to
//     its user's `user` stream), from the difference before and after opening them;
//  2. fan-out: one public status to `subscribers` WebSockets on the `public` stream, each of a
//     different user (each is rendered for its own viewer, as the REST API would), then the same
//     number of connections shared by ten users: the time from sending the POST until the last
//     subscriber has the `update`, median of the rounds.
//  0. for comparison, the same POST with nobody connected.
// Seeding hashes a password per user (scrypt, about a tenth of a second each): `--data-dir`
// keeps the seeded directory for the next run, which then seeds nothing.
// Not part of `npm test` or `npm run bench`; the figures go to docs/PERFORMANCE.md by hand.

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import WebSocket from "ws";
import { freePort } from "../test/helpers/server.ts";
import { type SeededUser, seedUsers } from "../test/helpers/wren-process.ts";
import { residentMegabytes, startWrenServer } from "./lib/processes.ts";
import { benchEnv } from "./lib/seed.ts";

const { values } = parseArgs({
  options: {
    connections: { type: "string", default: "10000" },
    subscribers: { type: "string", default: "1000" },
    rounds: { type: "string", default: "5" },
    "data-dir": { type: "string" },
  },
});
const CONNECTIONS = Number(values.connections);
const SUBSCRIBERS = Number(values.subscribers);
const ROUNDS = Number(values.rounds);
/** Upgrades in flight at once while opening connections. */
const OPENING = 100;

const kept = values["data-dir"];
const dir = kept ?? (await mkdtemp(join(tmpdir(), "wren-bench-streaming-")));
const env = benchEnv(dir, await freePort());
const url = env.WREN_PUBLIC_URL as string;
const seededFile = join(dir, "bench-streaming-users.json");

async function seeded(): Promise<{ readers: SeededUser[]; herald: SeededUser }> {
  const before = await readFile(seededFile, "utf8").catch(() => undefined);
  if (before) return JSON.parse(before);
  process.stdout.write(`seeding ${SUBSCRIBERS} users…\n`);
  const names = Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i}`);
  const readers: SeededUser[] = [];
  const SEED_BATCH = 50;
  for (let i = 0; i < names.length; i += SEED_BATCH) {
    readers.push(...(await seedUsers(dir, names.slice(i, i + SEED_BATCH), env)));
  }
  const [herald] = await seedUsers(dir, ["herald"], env);
  if (!herald) throw new Error("no herald");
  await writeFile(seededFile, JSON.stringify({ readers, herald }));
  return { readers, herald };
}
const { readers, herald } = await seeded();

const wren = await startWrenServer(env);
const pid = wren.process.pid as number;

function open(token: string, stream: string): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/api/v1/streaming?stream=${stream}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
  });
}

async function openMany(count: number, tokenOf: (i: number) => string, stream: string) {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < count; i += OPENING) {
    const batch = Array.from({ length: Math.min(OPENING, count - i) }, (_, j) =>
      open(tokenOf(i + j), stream),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

async function closeAll(sockets: readonly WebSocket[]) {
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          ws.once("close", () => resolve());
          ws.close();
        }),
    ),
  );
}

async function postPublic(text: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/statuses`, {
    method: "POST",
    headers: { authorization: `Bearer ${herald.token}`, "content-type": "application/json" },
    body: JSON.stringify({ status: text }),
  });
  const body = (await res.json()) as { id: string };
  if (res.status !== 200) throw new Error(`post: ${res.status} ${JSON.stringify(body)}`);
  return body.id;
}

/** The POST's own answer times of the fan-out rounds (the event is signalled before it). */
const answered: number[] = [];

/** Posts one public status; resolves with the ms from sending until every socket has it. */
function fanOut(sockets: readonly WebSocket[], text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let waiting = sockets.length;
    let id: string | undefined;
    const early: string[] = [];
    const started = performance.now();
    const listeners = sockets.map((ws) => {
      const listener = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as { event?: string; payload?: string };
        if (message.event !== "update" || !message.payload) return;
        const statusId = (JSON.parse(message.payload) as { id: string }).id;
        if (id === undefined) early.push(statusId);
        else if (statusId !== id) return;
        ws.off("message", listener);
        waiting -= 1;
        if (waiting === 0) finish();
      };
      ws.on("message", listener);
      return listener;
    });
    const finish = () => {
      if (id === undefined) return;
      resolve(performance.now() - started);
    };
    postPublic(text).then((posted) => {
      answered.push(performance.now() - started);
      id = posted;
      // Updates that arrived before the POST answered count when they were this status.
      if (early.some((e) => e !== posted)) reject(new Error("an unexpected update arrived"));
      if (waiting === 0) finish();
    }, reject);
    void listeners;
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

try {
  // 0. The POST alone.
  const alone: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const started = performance.now();
    await postPublic(`alone ${round}`);
    if (round > 0) alone.push(performance.now() - started);
  }
  process.stdout.write(
    `nobody connected: the POST answered after ${median(alone).toFixed(0)} ms\n`,
  );

  // 1. Idle connections.
  await new Promise((r) => setTimeout(r, 2000));
  const before = await residentMegabytes(pid);
  const openedAt = performance.now();
  const idle = await openMany(CONNECTIONS, (i) => readers[i % readers.length]?.token ?? "", "user");
  const openSeconds = (performance.now() - openedAt) / 1000;
  await new Promise((r) => setTimeout(r, 3000));
  const after = await residentMegabytes(pid);
  const perConnection = ((after - before) * 1024) / CONNECTIONS;
  process.stdout.write(
    `idle: ${CONNECTIONS} WebSockets opened in ${openSeconds.toFixed(1)} s; server resident ` +
      `${before.toFixed(0)} MB → ${after.toFixed(0)} MB: ${perConnection.toFixed(1)} KiB per connection\n`,
  );
  await closeAll(idle);

  // 2. Fan-out, distinct viewers then ten viewers.
  for (const [label, viewers] of [
    [`${SUBSCRIBERS} users`, SUBSCRIBERS],
    ["10 users", 10],
  ] as const) {
    const sockets = await openMany(SUBSCRIBERS, (i) => readers[i % viewers]?.token ?? "", "public");
    await fanOut(sockets, "warm-up");
    const times: number[] = [];
    answered.length = 0;
    for (let round = 0; round < ROUNDS; round++)
      times.push(await fanOut(sockets, `round ${round}`));
    process.stdout.write(
      `fan-out to ${SUBSCRIBERS} subscribers (${label}): last received after ` +
        `${median(times).toFixed(0)} ms (median of ${ROUNDS}; ${times.map((t) => t.toFixed(0)).join(", ")}); the POST answered after ` +
        `${median(answered.slice(1)).toFixed(0)} ms\n`,
    );
    await closeAll(sockets);
  }
} finally {
  await wren.stop();
  if (!kept) await rm(dir, { recursive: true, force: true });
}
