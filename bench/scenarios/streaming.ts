// The streaming API of a `wren serve` child process on a fresh json-file data directory (issue 18),
// WebSocket clients in the bench process over loopback:
//  0. the reference: the same POST of a public status with nobody connected;
//  1. idle WebSockets: resident memory of the server per open connection (each subscribed to
//     its user's `user` stream), from the difference before and after opening them;
//  2. fan-out: one public status to `subscribers` WebSockets on the `public` stream, each of a
//     different user (each gets the JSON the REST API would give them), then the same number of
//     connections shared by ten users: the time from sending the POST until the last subscriber
//     has the `update`, and when the POST itself answered; median of the rounds.

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { freePort } from "../../test/helpers/server.ts";
import { residentMegabytes, startWrenServer } from "../lib/processes.ts";
import { benchEnv, type SeededReader, seedReaders } from "../lib/seed.ts";
import { median } from "../lib/stats.ts";

export interface StreamingProfile {
  /** Idle connections opened for the memory figure. */
  connections: number;
  /** Subscribers of the fan-out, and users seeded. */
  subscribers: number;
  rounds: number;
}

export interface FanOutFigure {
  /** Distinct users among the subscribers. */
  viewers: number;
  /** Median ms from sending the POST until the last subscriber had the update. */
  lastMs: number;
  /** Median ms until the POST answered. */
  postMs: number;
  /** Every round's lastMs. */
  rounds: number[];
  /** The server's CPU time per round (ms; the POST's own included), steadier than wall times. */
  cpuMs: number;
}

export interface StreamingResult {
  connections: number;
  subscribers: number;
  residentBeforeMb: number;
  residentAfterMb: number;
  kibPerConnection: number;
  openSeconds: number;
  /** Median ms of the POST with nobody connected. */
  aloneMs: number;
  /** The server's CPU time per POST with nobody connected (ms). */
  aloneCpuMs: number;
  fanouts: FanOutFigure[];
}

export interface StreamingOptions {
  /** The checkout to run (bench/streaming.ts --tree); default this one. */
  tree?: string;
  /** Keeps the seeded directory for the next run (bench/streaming.ts --data-dir). */
  dataDir?: string;
}

/** Upgrades in flight at once while opening connections. */
const OPENING = 100;

/** CPU time a process has used (user and system, ms), from /proc (Linux). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  return (ticks * 1000) / 100;
}

export async function measureStreaming(
  profile: StreamingProfile,
  log: (message: string) => void,
  options: StreamingOptions = {},
): Promise<StreamingResult> {
  const dir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "wren-bench-streaming-")));
  const env = benchEnv(dir, await freePort());
  const url = env.WREN_PUBLIC_URL as string;
  const seededFile = join(dir, "bench-streaming-users.json");
  let seeded: { readers: SeededReader[]; herald: SeededReader };
  const before = await readFile(seededFile, "utf8").catch(() => undefined);
  if (before) seeded = JSON.parse(before);
  else {
    log(`streaming: seeding ${profile.subscribers} users…`);
    seeded = await seedReaders(env, profile.subscribers);
    await writeFile(seededFile, JSON.stringify(seeded));
  }
  const { readers, herald } = seeded;

  const wren = await startWrenServer(env, options.tree ? { tree: options.tree } : {});
  const pid = wren.process.pid as number;

  const open = (token: string, stream: string): Promise<WebSocket> => {
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/api/v1/streaming?stream=${stream}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(ws));
      ws.once("error", reject);
      ws.once("unexpected-response", (_req, res) =>
        reject(new Error(`refused: ${res.statusCode}`)),
      );
    });
  };
  const openMany = async (count: number, tokenOf: (i: number) => string, stream: string) => {
    const sockets: WebSocket[] = [];
    for (let i = 0; i < count; i += OPENING) {
      const batch = Array.from({ length: Math.min(OPENING, count - i) }, (_, j) =>
        open(tokenOf(i + j), stream),
      );
      sockets.push(...(await Promise.all(batch)));
    }
    return sockets;
  };
  const closeAll = (sockets: readonly WebSocket[]) =>
    Promise.all(
      sockets.map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            ws.once("close", () => resolve());
            ws.close();
          }),
      ),
    );
  const postPublic = async (text: string): Promise<string> => {
    const res = await fetch(`${url}/api/v1/statuses`, {
      method: "POST",
      headers: { authorization: `Bearer ${herald.token}`, "content-type": "application/json" },
      body: JSON.stringify({ status: text }),
    });
    const body = (await res.json()) as { id: string };
    if (res.status !== 200) throw new Error(`post: ${res.status} ${JSON.stringify(body)}`);
    return body.id;
  };

  /**
   * Posts one public status: ms until every socket has it (updates that arrive before the POST's
   * answer count when they arrived), and until the POST answered.
   */
  const fanOut = (sockets: readonly WebSocket[], text: string) =>
    new Promise<{ last: number; post: number }>((resolve, reject) => {
      let waiting = sockets.length;
      let id: string | undefined;
      let post = 0;
      let lastAt = 0;
      const early: string[] = [];
      const started = performance.now();
      const finish = () => {
        if (id !== undefined) resolve({ last: lastAt - started, post });
      };
      for (const ws of sockets) {
        const listener = (data: WebSocket.RawData) => {
          const message = JSON.parse(String(data)) as { event?: string; payload?: string };
          if (message.event !== "update" || !message.payload) return;
          const statusId = (JSON.parse(message.payload) as { id: string }).id;
          if (id === undefined) early.push(statusId);
          else if (statusId !== id) return;
          ws.off("message", listener);
          lastAt = performance.now();
          waiting -= 1;
          if (waiting === 0) finish();
        };
        ws.on("message", listener);
      }
      postPublic(text).then((posted) => {
        post = performance.now() - started;
        id = posted;
        if (early.some((e) => e !== posted)) reject(new Error("an unexpected update arrived"));
        if (waiting === 0) finish();
      }, reject);
    });

  try {
    // 0. The POST alone (the first is a warm-up).
    const alone: number[] = [];
    let aloneCpu = 0;
    for (let round = 0; round <= profile.rounds; round++) {
      const started = performance.now();
      const cpu = await cpuMs(pid);
      await postPublic(`alone ${round}`);
      if (round > 0) {
        alone.push(performance.now() - started);
        aloneCpu += (await cpuMs(pid)) - cpu;
      }
    }

    // 1. Idle connections.
    log(`streaming: ${profile.connections} idle WebSockets…`);
    await new Promise((r) => setTimeout(r, 2000));
    const residentBeforeMb = await residentMegabytes(pid);
    const openedAt = performance.now();
    const idle = await openMany(
      profile.connections,
      (i) => readers[i % readers.length]?.token ?? "",
      "user",
    );
    const openSeconds = (performance.now() - openedAt) / 1000;
    await new Promise((r) => setTimeout(r, 3000));
    const residentAfterMb = await residentMegabytes(pid);
    await closeAll(idle);

    // 2. Fan-out, distinct viewers then ten viewers.
    const fanouts: FanOutFigure[] = [];
    for (const viewers of [profile.subscribers, Math.min(10, profile.subscribers)]) {
      log(`streaming: fan-out to ${profile.subscribers} subscribers of ${viewers} users…`);
      const sockets = await openMany(
        profile.subscribers,
        (i) => readers[i % viewers]?.token ?? "",
        "public",
      );
      await fanOut(sockets, "warm-up");
      const rounds: { last: number; post: number }[] = [];
      const cpu = await cpuMs(pid);
      for (let round = 0; round < profile.rounds; round++) {
        rounds.push(await fanOut(sockets, `round ${round}`));
      }
      const cpuPerRound = ((await cpuMs(pid)) - cpu) / profile.rounds;
      fanouts.push({
        viewers,
        lastMs: median(rounds.map((r) => r.last)),
        postMs: median(rounds.map((r) => r.post)),
        rounds: rounds.map((r) => r.last),
        cpuMs: cpuPerRound,
      });
      await closeAll(sockets);
    }
    return {
      connections: profile.connections,
      subscribers: profile.subscribers,
      residentBeforeMb,
      residentAfterMb,
      kibPerConnection: ((residentAfterMb - residentBeforeMb) * 1024) / profile.connections,
      openSeconds,
      aloneMs: median(alone),
      aloneCpuMs: aloneCpu / profile.rounds,
      fanouts,
    };
  } finally {
    await wren.stop();
    if (!options.dataDir) await rm(dir, { recursive: true, force: true });
  }
}
