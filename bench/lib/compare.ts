// One comparison: the same requests against Wren and against the bare reference server,
// interleaved round by round (so drift of the shared machine hits both alike), reported as the
// median over rounds of Wren's rate divided by the reference's. Given several Wren processes (on
// one database), the load is split evenly between them, and between as many bare servers for the
// reference, and the rates are summed. The reference may instead be another Wren (the json-file
// backend beside PostgreSQL), asked the same probes by name in the same rounds.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { LoadSpec } from "./load-worker.ts";
import { PathCursors } from "./path-cursor.ts";
import { runLoad, startBareServer } from "./processes.ts";
import { type RecordedResponse, recordedHeaders } from "./recorded-responses.ts";
import { median } from "./stats.ts";

export interface Probe {
  name: string;
  method: LoadSpec["method"];
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Paths to cycle through instead of `path` (writes that must not repeat). */
  paths?: string[];
}

export interface Comparison {
  name: string;
  wrenRps: number;
  referenceRps: number;
  ratio: number;
  reference: string;
  /** Wren's rate over the reference's, round by round (`ratio` is their median). */
  roundRatios: number[];
}

export interface RoundOptions {
  rounds: number;
  duration: number;
  connections: number;
  /**
   * Seconds of unmeasured load per probe, on Wren and on the bare server, before the first
   * round. Without it the first round of the first probes met a server whose code was not yet
   * optimised and whose per-process memos (and, on PostgreSQL, its rate-limit takes, which grow
   * with the caller's pace) were empty. A write probe's warm-up spends targets of its own (the
   * rounds go on from where it stopped, path-cursor.ts).
   */
  warmUp?: number;
}

/** The load one probe puts on one server. */
export function probeLoad(
  probe: Probe,
  url: string,
  connections: number,
  duration: number,
): LoadSpec {
  return {
    url: `${url}${probe.path}`,
    method: probe.method,
    connections,
    duration,
    ...(probe.headers ? { headers: probe.headers } : {}),
    ...(probe.body === undefined ? {} : { body: probe.body }),
    ...(probe.paths ? { paths: probe.paths } : {}),
  };
}

/**
 * Records Wren's answer to each probe once, for the reference servers to replay byte for byte
 * (recorded-responses.ts); the file's folder is the caller's to remove.
 */
export async function recordResponses(wrenUrl: string, probes: readonly Probe[]): Promise<string> {
  const recorded: Record<string, RecordedResponse> = {};
  for (const probe of probes) {
    const res = await fetch(`${wrenUrl}${probe.paths?.[0] ?? probe.path}`, {
      method: probe.method,
      headers: probe.headers ?? {},
      ...(probe.body === undefined ? {} : { body: probe.body }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!res.ok) throw new Error(`${probe.name}: Wren answered ${res.status}: ${bytes}`);
    const entry: RecordedResponse = {
      status: res.status,
      type: res.headers.get("content-type") ?? "application/json",
      body: bytes.toString("base64"),
      headers: recordedHeaders(res.headers),
    };
    // Signed in and anonymous, one path can answer differently (the public timeline does).
    const signedIn = probe.headers?.authorization ? " (signed in)" : "";
    recorded[`${probe.method} ${probe.path}${signedIn}`] = entry;
    if (probe.paths) recorded["* *"] = entry;
  }
  const dir = await mkdtemp(join(tmpdir(), "wren-bench-bare-"));
  const file = join(dir, "responses.json");
  await writeFile(file, JSON.stringify(recorded));
  return file;
}

/** The load of one probe on one of `parts` targets loaded at once. */
type LoadOf = (url: string, connections: number, part: number, parts: number) => LoadSpec;

/** Runs the same load against every target at once, the connections split between them. */
async function splitLoad(
  urls: readonly string[],
  spec: LoadOf,
  connections: number,
): Promise<{ rps: number; requests: number; non2xx: number; errors: number }> {
  const share = Math.max(1, Math.round(connections / urls.length));
  const results = await Promise.all(
    urls.map((url, part) => runLoad(spec(url, share, part, urls.length))),
  );
  const sum = (of: (r: (typeof results)[number]) => number) =>
    results.reduce((total, r) => total + of(r), 0);
  return {
    rps: sum((r) => r.rps),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
  };
}

/** Another Wren as the reference: its URL and its own probes (ids differ between seeds). */
export interface WrenReference {
  name: string;
  url: string;
  probes: readonly Probe[];
}

export async function compareWithBare(
  wrenUrls: string | readonly string[],
  probes: readonly Probe[],
  options: RoundOptions,
  other?: WrenReference,
): Promise<Comparison[]> {
  const targets = typeof wrenUrls === "string" ? [wrenUrls] : wrenUrls;
  const responses = other ? undefined : await recordResponses(targets[0] as string, probes);
  const bares = responses
    ? await Promise.all(targets.map(() => startBareServer(responses)))
    : [{ url: (other as WrenReference).url, stop: async () => {} }];
  // The reference's own probe of each name (the bare servers answer every probe's path).
  const referenceOf = (probe: Probe): Probe =>
    other?.probes.find((p) => p.name === probe.name) ?? probe;
  try {
    const samples = new Map<string, { wren: number[]; bare: number[]; ratio: number[] }>();
    // A write probe's loads on a Wren each go on from where its last stopped (path-cursor.ts);
    // the bare servers answer any path alike.
    const cursors = new PathCursors();
    const specOf =
      (probe: Probe, duration: number): LoadOf =>
      (url, connections, part, parts) => {
        const load = probeLoad(probe, url, connections, duration);
        if (!probe.paths) return load;
        return { ...load, paths: cursors.paths(probe, probe.paths, part, parts) };
      };
    const loadOn = async (urls: readonly string[], probe: Probe, duration: number) => {
      const result = await splitLoad(urls, specOf(probe, duration), options.connections);
      cursors.advance(probe, result.requests);
      return result;
    };
    const loadWren = (probe: Probe, duration: number) => loadOn(targets, probe, duration);
    const loadReference = (probe: Probe, duration: number) =>
      other
        ? loadOn([other.url], referenceOf(probe), duration)
        : splitLoad(
            bares.map((b) => b.url),
            (url, connections) => probeLoad(probe, url, connections, duration),
            options.connections,
          );
    if (options.warmUp) {
      for (const probe of probes) {
        await loadWren(probe, options.warmUp);
        await loadReference(probe, options.warmUp);
      }
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const probe of probes) {
        // Alternate which goes first, so neither always meets a warmer machine.
        const order = round % 2 === 0 ? ["bare", "wren"] : ["wren", "bare"];
        const result: Record<string, number> = {};
        for (const which of order) {
          const r =
            which === "bare"
              ? await loadReference(probe, options.duration)
              : await loadWren(probe, options.duration);
          if ((which === "wren" || other) && (r.non2xx > 0 || r.errors > 0)) {
            process.stderr.write(`  ${probe.name}: ${r.non2xx} non-2xx, ${r.errors} errors\n`);
          }
          result[which] = r.rps;
        }
        const s = samples.get(probe.name) ?? { wren: [], bare: [], ratio: [] };
        s.wren.push(result.wren as number);
        s.bare.push(result.bare as number);
        s.ratio.push((result.wren as number) / (result.bare as number));
        samples.set(probe.name, s);
      }
    }
    return probes.map((probe) => {
      const s = samples.get(probe.name) as { wren: number[]; bare: number[]; ratio: number[] };
      return {
        name: probe.name,
        wrenRps: median(s.wren),
        referenceRps: median(s.bare),
        ratio: median(s.ratio),
        roundRatios: s.ratio,
        reference: other
          ? other.name
          : bares.length === 1
            ? "bare node:http"
            : `${bares.length} bare node:http`,
      };
    });
  } finally {
    await Promise.all(bares.map((b) => b.stop()));
    if (responses) await rm(dirname(responses), { recursive: true, force: true });
  }
}

/**
 * Comparisons of the same probes by several pairs of processes pooled into one: each probe's
 * ratio is the median of every pair's rounds, its rates the median of the pairs'. Two processes
 * of one tree and backend were seen 35% apart (JIT decisions, which earlier probes warmed what),
 * which no number of rounds with one pair averages out.
 */
export function pooled(runs: readonly (readonly Comparison[])[]): Comparison[] {
  const first = runs[0] ?? [];
  return first.map((c) => {
    const same = runs.flatMap((run) => run.filter((other) => other.name === c.name));
    const roundRatios = same.flatMap((other) => other.roundRatios);
    return {
      name: c.name,
      wrenRps: median(same.map((other) => other.wrenRps)),
      referenceRps: median(same.map((other) => other.referenceRps)),
      ratio: median(roundRatios),
      reference: c.reference,
      roundRatios,
    };
  });
}
