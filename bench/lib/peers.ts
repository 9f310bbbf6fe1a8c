// The simulated remote servers of the federation scenarios, seen from the bench: a few child
// processes (peers-worker.ts), each with many servers on their own ports. Tells when an
// activity has reached every server, and hands out the actors' key for signing as them.

import { type ChildProcess, spawn } from "node:child_process";
import type { webcrypto } from "node:crypto";
import type { PeersMessage, PeersSpec } from "./peers-worker.ts";

const here = new URL(".", import.meta.url).pathname;

/** The name of a server's `index`th actor (`/users/u<index>`). */
export function actorName(index: number): string {
  return `u${index}`;
}

export interface PeerServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `127.0.0.1:<port>`: the domain of its accounts. */
  host: string;
  /** Which process serves it (index into `keys`). */
  process: number;
}

export interface Peers {
  servers: PeerServer[];
  actorsPerServer: number;
  /** Each process's actor key pair: RSA private key (JWK) and public key (PEM). */
  keys: { privateKey: webcrypto.JsonWebKey; publicKeyPem: string }[];
  /** Resolves with the epoch ms at which the first and the last server got the activity `id`. */
  arrival(id: string, timeoutMs: number): Promise<{ first: number; last: number }>;
  /** The peer processes' ids (their CPU time is read from /proc). */
  pids: number[];
  /** Signatures verified and refused so far, over all servers. */
  stats(): Promise<{ verified: number; refused: number }>;
  stop(): Promise<void>;
}

interface Worker {
  child: ChildProcess;
  ready: Extract<PeersMessage, { type: "ready" }>;
}

async function startWorker(spec: PeersSpec, onMessage: (m: PeersMessage) => void) {
  const child = spawn(process.execPath, [`${here}peers-worker.ts`, JSON.stringify(spec)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  child.on("message", (m) => onMessage(m as PeersMessage));
  const ready = await new Promise<Worker["ready"]>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`peers worker exited with ${code}`)));
    child.on("message", (m: PeersMessage) => {
      if (m.type === "ready") resolve(m);
    });
  });
  return { child, ready };
}

/** `servers` servers spread evenly over `processes` processes. */
export async function startPeers(options: {
  servers: number;
  actorsPerServer: number;
  processes: number;
}): Promise<Peers> {
  const count = Math.min(options.processes, options.servers);
  // Per activity id: the number of processes done, the first arrival, the last arrival.
  const done = new Map<string, { processes: number; first: number; at: number }>();
  const waiting = new Map<string, () => void>();
  let statsReplies: Extract<PeersMessage, { type: "stats" }>[] = [];
  let statsWaiter: (() => void) | undefined;
  const onMessage = (m: PeersMessage) => {
    if (m.type === "complete") {
      const entry = done.get(m.id) ?? { processes: 0, first: m.first, at: 0 };
      entry.processes++;
      entry.first = Math.min(entry.first, m.first);
      entry.at = Math.max(entry.at, m.at);
      done.set(m.id, entry);
      if (entry.processes === count) waiting.get(m.id)?.();
    } else if (m.type === "stats") {
      statsReplies.push(m);
      if (statsReplies.length === count) statsWaiter?.();
    }
  };
  const workers: Worker[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const servers = Math.floor(options.servers / count) + (i < options.servers % count ? 1 : 0);
      workers.push(
        await startWorker({ servers, actorsPerServer: options.actorsPerServer }, onMessage),
      );
    }
  } catch (error) {
    for (const w of workers) w.child.kill();
    throw error;
  }
  const servers = workers.flatMap((w, process) =>
    w.ready.ports.map((port) => ({
      origin: `http://127.0.0.1:${port}`,
      host: `127.0.0.1:${port}`,
      process,
    })),
  );
  return {
    servers,
    actorsPerServer: options.actorsPerServer,
    pids: workers.map((w) => w.child.pid as number),
    keys: workers.map((w) => ({
      privateKey: w.ready.privateKey,
      publicKeyPem: w.ready.publicKeyPem,
    })),
    arrival(id, timeoutMs) {
      return new Promise((resolve, reject) => {
        const finish = () => {
          clearTimeout(timer);
          waiting.delete(id);
          const entry = done.get(id) as { first: number; at: number };
          resolve({ first: entry.first, last: entry.at });
        };
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`${id} did not reach every server within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        if (done.get(id)?.processes === count) finish();
        else waiting.set(id, finish);
      });
    },
    stats() {
      statsReplies = [];
      return new Promise((resolve) => {
        statsWaiter = () =>
          resolve({
            verified: statsReplies.reduce((n, r) => n + r.verified, 0),
            refused: statsReplies.reduce((n, r) => n + r.refused, 0),
          });
        for (const w of workers) w.child.send({ type: "stats" });
      });
    },
    async stop() {
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              if (w.child.exitCode !== null) return resolve();
              w.child.once("exit", () => resolve());
              w.child.kill("SIGTERM");
            }),
        ),
      );
    },
  };
}
