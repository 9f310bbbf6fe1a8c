// The PostgreSQL part of the generated report: each figure beside the json-file one of the same
// run, with issue 16's targets (reads within 80% of json-file's, status creation ≥ 1,000/s).

import type { PostgresResults } from "../scenarios/postgres.ts";
import type { Comparison } from "./compare.ts";
import { federationSection, type ScaleResult, table } from "./report.ts";
import { round } from "./stats.ts";

const percent = (x: number) => `${Math.round(x * 100)}%`;
const rps = (x: number) => String(Math.round(x));

export function postgresSection(pg: PostgresResults, jsonFile: readonly ScaleResult[]): string[] {
  const first = pg.scale[0];
  const jsonReads = jsonFile.find((s) => s.statuses === first?.statuses)?.reads ?? [];
  const jsonRatio = (name: string) => jsonReads.find((c) => c.name === name)?.ratio;
  const beside = (name: string) => pg.againstJsonFile.find((c) => c.name === name)?.ratio;
  const readRows = (first?.reads ?? []).map((c) => {
    const j = jsonRatio(c.name);
    const share = j === undefined ? undefined : c.ratio / j;
    const direct = beside(c.name);
    return [
      c.name,
      rps(c.wrenRps),
      rps(c.referenceRps),
      percent(c.ratio),
      j === undefined ? "–" : percent(j),
      share === undefined ? "–" : percent(share),
      direct === undefined ? "–" : percent(direct),
      direct === undefined ? "–" : direct >= 0.8 ? "met" : "missed",
    ];
  });
  const single = (name: string): Comparison | undefined =>
    first?.reads.find((c) => c.name === name);
  const twoRows = pg.twoProcess.map((c) => {
    const one = single(c.name);
    return [
      c.name,
      rps(c.wrenRps),
      rps(c.referenceRps),
      percent(c.ratio),
      one ? rps(one.wrenRps) : "–",
      one ? `${round(c.wrenRps / one.wrenRps, 2)}×` : "–",
    ];
  });
  const isCreate = (c: Comparison) => c.name === "create status";
  const writeRows = pg.writes.map((c) => [
    c.name,
    rps(c.wrenRps),
    rps(c.referenceRps),
    percent(c.ratio),
    isCreate(c) && pg.rawInserts ? percent(c.wrenRps / pg.rawInserts) : "",
    isCreate(c) ? `≥ 1,000/s: ${c.wrenRps >= 1000 ? "met" : "missed"}` : "",
  ]);
  const scaleRows = pg.scale.map((s) => [
    s.statuses.toLocaleString("en"),
    String(round(s.startupSeconds, 1)),
    String(Math.round(s.residentMb)),
    ...s.reads.map((c) => percent(c.ratio)),
  ]);
  const { fanout, inbox } = pg.federation;
  return [
    "### PostgreSQL",
    "",
    `Reads (${first?.statuses.toLocaleString("en")} statuses; requests/s, Wren on PostgreSQL vs bare node:http; json-file's ratio from the json-file part of the run; then Wren on PostgreSQL against Wren on json-file seeded alike, in the same rounds, two fresh pairs of processes pooled (the median of their rounds), which the 80% target is judged on):`,
    "",
    table([
      [
        "scenario",
        "Wren",
        "bare",
        "ratio",
        "json-file ratio",
        "ratio / json-file's",
        "PostgreSQL / json-file, same rounds",
        "≥ 80%",
      ],
      ...readRows,
    ]),
    "",
    "Reads split between two processes on one database (`serve` and `serve --role web`; half the connections each, against two bare servers):",
    "",
    table([
      ["scenario", "Wren, 2 processes", "2 bare", "ratio", "Wren, 1 process", "2 / 1"],
      ...twoRows,
    ]),
    "",
    "Writes (50 concurrent clients; requests/s):",
    "",
    table([
      ["scenario", "Wren", "bare", "ratio to bare", "ratio to raw inserts", "target"],
      ...writeRows,
    ]),
    "",
    // The create target is absolute, but the database's own insert rate bounds it: shown beside.
    `Raw status inserts (one autocommitted INSERT per status, 50 clients on a pool of 10, nothing else running): ${pg.rawInserts ? `${rps(pg.rawInserts)}/s` : "not measured"}.`,
    "",
    table([
      ["statuses", "start-up (s)", "resident (MB)", ...(first?.reads ?? []).map((c) => c.name)],
      ...scaleRows,
    ]),
    "",
    ...federationSection(fanout, inbox, "Federation on PostgreSQL:"),
  ];
}
