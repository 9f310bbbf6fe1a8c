// Inbox (issue 7): signed Create(Note) activities from many remote actors POSTed to Wren's
// shared inbox by a separate process; measured both as accepted (answered 2xx: signature
// verified, activity queued durably) and as processed (the statuses exist: the job queue ran
// the listener, which stored them) per second. Reference: Fedify's verifyRequest over the same
// requests with the same keys in a loop (inbox-load.ts).

import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InboxLoadResult, InboxLoadSpec } from "../lib/inbox-load.ts";
import type { Peers } from "../lib/peers.ts";
import { cpuMilliseconds } from "../lib/processes.ts";
import type { FederationSeeded, RemoteActor } from "../lib/seed-federation.ts";
import { median } from "../lib/stats.ts";

const here = new URL("../lib/", import.meta.url).pathname;

export interface InboxResult {
  activities: number;
  senders: number;
  concurrency: number;
  /** Medians over rounds, activities per second. */
  acceptedPerSecond: number;
  processedPerSecond: number;
  /** Reference: verifyRequest calls per second, same requests and keys. */
  verifiedPerSecond: number;
  /** processedPerSecond / verifiedPerSecond */
  ratio: number;
  /**
   * Server CPU (user + system, all threads) per activity, accepting and processing, in ms:
   * the figure other processes' load changes least (present when the server's pid is known).
   */
  cpuMsPerActivity?: number;
  /** Each round's figures, for judging the noise. */
  perRound: { accepted: number; processed: number; verified: number; cpuMs?: number }[];
}

async function runInboxLoad(spec: InboxLoadSpec): Promise<InboxLoadResult> {
  const dir = await mkdtemp(join(tmpdir(), "wren-bench-inbox-"));
  try {
    const file = join(dir, "spec.json");
    await writeFile(file, JSON.stringify(spec));
    const child = spawn(process.execPath, [`${here}inbox-load.ts`, file], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`inbox load exited with ${code}`);
    return JSON.parse(output.trim().split("\n").pop() as string) as InboxLoadResult;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function statusesCount(wrenUrl: string, accountId: string): Promise<number> {
  const res = await fetch(`${wrenUrl}/api/v1/accounts/${accountId}`);
  if (!res.ok) throw new Error(`GET /api/v1/accounts/${accountId}: ${res.status}`);
  return ((await res.json()) as { statuses_count: number }).statuses_count;
}

/**
 * Waits until every sender has `expected` statuses stored; returns the epoch ms it was seen.
 * Cheap while the queue drains: it stops at the first sender still short and looks again
 * 20 ms later, so Wren answers about one request per look, not one per sender.
 */
async function processed(
  wrenUrl: string,
  expected: Map<string, number>,
  timeoutMs: number,
): Promise<number> {
  const pending = [...expected.keys()];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    while (pending.length > 0) {
      const id = pending[pending.length - 1] as string;
      if ((await statusesCount(wrenUrl, id)) < (expected.get(id) as number)) break;
      pending.pop();
    }
    if (pending.length === 0) return Date.now();
    if (Date.now() > deadline) {
      throw new Error(`${pending.length} senders still lack statuses after ${timeoutMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

function loadSpec(
  wrenUrl: string,
  peers: Peers,
  senders: readonly RemoteActor[],
  tag: string,
  count: number,
  concurrency: number,
  verifySamples: number,
): InboxLoadSpec {
  return {
    inboxUrl: `${wrenUrl}/inbox`,
    tag,
    count,
    concurrency,
    senders: senders.map((s) => ({ uri: s.uri, process: s.process })),
    keys: peers.keys,
    verifySamples,
  };
}

export async function measureInbox(
  wrenUrl: string,
  peers: Peers,
  seeded: FederationSeeded,
  options: {
    activities: number;
    rounds: number;
    concurrency: number;
    timeoutSeconds: number;
    serverPid?: number;
    /** Started as each measured round starts; its stop is awaited once the round is processed. */
    traceRound?: () => Promise<(activities: number) => Promise<void>>;
  },
): Promise<InboxResult> {
  const senders = seeded.senders;
  const expected = new Map(senders.map((s) => [s.accountId, 0]));
  const add = (count: number) => {
    for (let n = 0; n < count; n++) {
      const id = (senders[n % senders.length] as RemoteActor).accountId;
      expected.set(id, (expected.get(id) as number) + 1);
    }
  };
  // Warm-up, not measured: one post per sender, so Wren has fetched and cached every key (a
  // busy server knows its peers' keys; first contacts are another story).
  const warm = await runInboxLoad(
    loadSpec(wrenUrl, peers, senders, "warm", senders.length, options.concurrency, 0),
  );
  if (warm.accepted !== senders.length) {
    throw new Error(`inbox warm-up: ${JSON.stringify(warm.refused)} refused`);
  }
  add(senders.length);
  await processed(wrenUrl, expected, options.timeoutSeconds * 1000);

  const accepted: number[] = [];
  const done: number[] = [];
  const verified: number[] = [];
  const cpu: number[] = [];
  const pid = options.serverPid;
  for (let round = 0; round < options.rounds; round++) {
    const cpuBefore = pid === undefined ? 0 : await cpuMilliseconds(pid);
    const spec = loadSpec(
      wrenUrl,
      peers,
      senders,
      `r${round}`,
      options.activities,
      options.concurrency,
      Math.min(options.activities, 1000),
    );
    const stopTrace = await options.traceRound?.();
    const load = await runInboxLoad(spec);
    if (load.accepted !== options.activities) {
      process.stderr.write(`  inbox: refused ${JSON.stringify(load.refused)}\n`);
    }
    add(options.activities);
    const at = await processed(wrenUrl, expected, options.timeoutSeconds * 1000);
    await stopTrace?.(options.activities);
    accepted.push(load.accepted / ((load.finishedAt - load.startedAt) / 1000));
    done.push(options.activities / ((at - load.startedAt) / 1000));
    verified.push(load.verifiedPerSecond);
    if (pid !== undefined)
      cpu.push(((await cpuMilliseconds(pid)) - cpuBefore) / options.activities);
  }
  const processedPerSecond = median(done);
  const verifiedPerSecond = median(verified);
  return {
    activities: options.activities,
    senders: senders.length,
    concurrency: options.concurrency,
    acceptedPerSecond: median(accepted),
    processedPerSecond,
    verifiedPerSecond,
    ratio: processedPerSecond / verifiedPerSecond,
    ...(cpu.length > 0 ? { cpuMsPerActivity: median(cpu) } : {}),
    perRound: accepted.map((a, i) => ({
      accepted: a,
      processed: done[i] as number,
      verified: verified[i] as number,
      ...(cpu.length > 0 ? { cpuMs: cpu[i] as number } : {}),
    })),
  };
}
