// Issue 21's no-op target (a request that does nothing behind the middleware ≥ 80% of bare
// node:http) beside the framework's own floor: the same requests against Wren; against Hono and
// `@hono/node-server` alone answering Wren's bytes from one route (bare-hono-server.ts), with the
// bare server's two headers and then with Wren's others too; against the bare `node:http` server
// sending Wren's headers too; and against the bare server; the five interleaved in every round.
// Hono alone against bare node:http is the most any request of Wren's can reach while Wren runs on
// Hono (DESIGN.md); with Wren's headers, the most an answer carrying them can; the bare server with
// Wren's headers, the most such an answer can on Node's http server whatever runs above it. Wren
// against Hono alone with Wren's headers is what Wren's middleware and routes take on top.

import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { type Probe, probeLoad, type RoundOptions, recordResponses } from "../lib/compare.ts";
import { type Child, runLoad, startBareHonoServer, startBareServer } from "../lib/processes.ts";
import type { Seeded } from "../lib/seed.ts";
import { median } from "../lib/stats.ts";

export interface FloorResult {
  name: string;
  wrenRps: number;
  honoRps: number;
  /** Hono alone sending Wren's headers too. */
  headersRps: number;
  /** The bare server sending Wren's headers too. */
  bareHeadersRps: number;
  bareRps: number;
  /** Medians of the rounds' ratios. */
  wrenToBare: number;
  honoToBare: number;
  headersToBare: number;
  bareHeadersToBare: number;
  wrenToHeaders: number;
}

/** `GET /api/v1/custom_emojis`, empty on the bench's data: a kept answer and nothing else. */
export function floorProbes(seeded: Seeded): Probe[] {
  const path = "/api/v1/custom_emojis";
  return [
    {
      name: "no-op, signed in",
      method: "GET",
      path,
      headers: { authorization: `Bearer ${seeded.token}` },
    },
    { name: "no-op, anonymous", method: "GET", path },
  ];
}

const SERVERS = ["bare", "bareHeaders", "hono", "headers", "wren"] as const;

export async function measureFrameworkFloor(
  wrenUrl: string,
  probes: readonly Probe[],
  options: RoundOptions,
): Promise<FloorResult[]> {
  const responses = await recordResponses(wrenUrl, probes);
  const started: Child[] = [];
  try {
    const bare = await startBareServer(responses);
    started.push(bare);
    const bareHeaders = await startBareServer(responses, { withWrenHeaders: true });
    started.push(bareHeaders);
    const hono = await startBareHonoServer(responses);
    started.push(hono);
    const headers = await startBareHonoServer(responses, { withWrenHeaders: true });
    started.push(headers);
    const urls = {
      bare: bare.url,
      bareHeaders: bareHeaders.url,
      hono: hono.url,
      headers: headers.url,
      wren: wrenUrl,
    };
    const rate = async (server: (typeof SERVERS)[number], probe: Probe, duration: number) => {
      const result = await runLoad(probeLoad(probe, urls[server], options.connections, duration));
      if (result.non2xx > 0 || result.errors > 0) {
        process.stderr.write(
          `  ${probe.name} (${server}): ${result.non2xx} non-2xx, ${result.errors} errors\n`,
        );
      }
      return result.rps;
    };
    for (const probe of probes) {
      for (const server of SERVERS) await rate(server, probe, options.warmUp ?? 1);
    }
    const rounds = new Map(probes.map((p) => [p.name, [] as Record<string, number>[]]));
    for (let round = 0; round < options.rounds; round++) {
      for (const probe of probes) {
        // A different server first each round, so none always meets a warmer machine.
        const order = SERVERS.map(
          (_, i) => SERVERS[(i + round) % SERVERS.length] as (typeof SERVERS)[number],
        );
        const rates: Record<string, number> = {};
        for (const server of order) rates[server] = await rate(server, probe, options.duration);
        rounds.get(probe.name)?.push(rates);
      }
    }
    return probes.map((probe) => {
      const rs = rounds.get(probe.name) ?? [];
      const of = (server: string) => rs.map((r) => r[server] as number);
      const ratio = (a: string, b: string) =>
        median(rs.map((r) => (r[a] as number) / (r[b] as number)));
      return {
        name: probe.name,
        wrenRps: median(of("wren")),
        honoRps: median(of("hono")),
        headersRps: median(of("headers")),
        bareHeadersRps: median(of("bareHeaders")),
        bareRps: median(of("bare")),
        wrenToBare: ratio("wren", "bare"),
        honoToBare: ratio("hono", "bare"),
        headersToBare: ratio("headers", "bare"),
        bareHeadersToBare: ratio("bareHeaders", "bare"),
        wrenToHeaders: ratio("wren", "headers"),
      };
    });
  } finally {
    await Promise.all(started.map((child) => child.stop()));
    await rm(dirname(responses), { recursive: true, force: true });
  }
}
