// The test runner's recap of failures (test/shards.ts): CI keeps only the end of a long run's
// log, so the runner repeats each failing shard's "failing tests" section there, with the error.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { failingSection } from "../shards.ts";

/** The spec reporter's report of `source` run as a test file in a process of its own. */
async function specReport(source: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "wren-runner-"));
  try {
    const file = join(dir, "sample.test.ts");
    await writeFile(file, source);
    // Without the variable that makes a test run inside a test report to its parent instead.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const args = ["--test", "--test-reporter=spec", file];
    const run = promisify(execFile)(process.execPath, args, { env });
    const { stdout } = await run.catch((error: { stdout: string }) => error);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("the test runner's recap of failures", () => {
  it("takes the failing test with its error from a spec report, not the passing ones", async () => {
    const report = await specReport(`
      import assert from "node:assert/strict";
      import { it } from "node:test";
      it("passes quietly", () => {});
      it("counts the ducks", () => assert.equal(2 + 2, 5, "seventeen ducks went missing"));
    `);
    const section = failingSection(report);
    assert.ok(section, report);
    assert.match(section, /^✖ failing tests:/);
    assert.match(section, /counts the ducks/);
    assert.match(section, /seventeen ducks went missing/);
    assert.doesNotMatch(section, /passes quietly/);
  });

  it("finds nothing in a report without failures", async () => {
    const report = await specReport(`
      import { it } from "node:test";
      it("passes quietly", () => {});
    `);
    assert.match(report, /passes quietly/);
    assert.equal(failingSection(report), undefined);
  });

  it("cuts a long section, keeping its start", () => {
    const long = `✖ failing tests:\n\n✖ the first\n${"  at a frame\n".repeat(2000)}`;
    const section = failingSection(`✔ ok\nℹ fail 1\n${long}`) ?? "";
    assert.ok(section.startsWith("✖ failing tests:\n\n✖ the first"));
    assert.ok(section.length < long.length && section.length <= 4010, `${section.length}`);
    assert.ok(section.endsWith("…"));
  });
});
