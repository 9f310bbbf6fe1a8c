// The bench report's federation table judges the inbox and the fan-out against issue 21's
// figures: accepted ≥ 1,000/s, processed ≥ 500/s (it once labelled and checked accepted against
// 500/s), one status to 1,000 servers in ≤ 2 s (it once said issue 7's 10 s).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { federationSection } from "../../bench/lib/report.ts";
import { fanout, inbox } from "./report-fixtures.ts";

const rowOf = (lines: string[], scenario: string) =>
  lines.find((line) => line.startsWith(`| ${scenario}`)) ?? assert.fail(`no row ${scenario}`);

describe("the bench report's inbox targets", () => {
  it("checks accepted against 1,000/s and processed against 500/s", () => {
    const between = federationSection(fanout, inbox(700, 500), "x").join("\n").split("\n");
    assert.match(rowOf(between, "inbox: accepted"), /≥ 1,000\/s: missed/);
    assert.match(rowOf(between, "inbox: processed"), /≥ 500\/s: met/);
    const met = federationSection(fanout, inbox(1_000, 499), "x").join("\n").split("\n");
    assert.match(rowOf(met, "inbox: accepted"), /≥ 1,000\/s: met/);
    assert.match(rowOf(met, "inbox: processed"), /≥ 500\/s: missed/);
  });

  it("checks a full fan-out against 2 s, and says a smaller one is not judged", () => {
    const full = (seconds: number) =>
      federationSection({ ...fanout, servers: 1_000, seconds }, inbox(1_000, 500), "x")
        .join("\n")
        .split("\n");
    assert.match(rowOf(full(1.9), "fan-out"), /≤ 2 s: met/);
    assert.match(rowOf(full(2.5), "fan-out"), /≤ 2 s: missed/);
    const small = federationSection(fanout, inbox(1_000, 500), "x").join("\n").split("\n");
    assert.match(rowOf(small, "fan-out"), /full run/);
  });
});
