// Probes written on the command line as "GET /api/v1/…" instead of a bench probe's name, sent
// with the seeded viewer's token: any route can be measured without adding it to a scenario.

import type { Probe } from "./compare.ts";

export function adHocProbes(wanted: readonly string[], token: string): Probe[] {
  return wanted.flatMap((w) => {
    const match = /^(GET|POST|PUT|DELETE) (\/\S*)$/.exec(w);
    if (!match) return [];
    const [, method, path] = match as unknown as [string, Probe["method"], string];
    return [{ name: w, method, path, headers: { authorization: `Bearer ${token}` } }];
  });
}
