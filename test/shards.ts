// Runs test files the way `npm test` does: in shards, each shard one Node process that loads its
// files together (`--test-isolation=none`) and runs their tests one after the other, a few shards
// at a time. A process of its own per file, as `node --test` does, costs every file about two
// seconds of CPU before its first test (loading some 1,900 modules: Fedify, zod, the AWS SDK,
// Wren's own…): over 260 files, more than half of the suite's CPU time on a 2-core machine.
//
// The files of a shard share the process, not data: every test file starts its own servers on
// their own data directories or databases, sets no environment variable and installs no process
// handler. A file with a hook outside describe() (which would apply to the shard's other files)
// runs alone, and so does one listed in ISOLATED with the reason it cannot share its process.
// `node --test path/to/file.test.ts` still runs one file alone, in its own process.

import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Files run each in a process of its own, with why (beside those with top-level hooks). */
export const ISOLATED: Readonly<Record<string, string>> = {};

/**
 * A hook outside any describe() belongs to the process's root test: sharing the process, a
 * top-level beforeEach would run before every test of the shard's other files too. Such a file
 * runs alone.
 */
const TOP_LEVEL_HOOK = /^(?:before|after|beforeEach|afterEach)\(/m;

async function runsAlone(file: string): Promise<boolean> {
  return file in ISOLATED || TOP_LEVEL_HOOK.test(await readFile(file, "utf8"));
}

/** About this many files per shard: fewer processes, but shards short enough to balance. */
const FILES_PER_SHARD = 12;

export interface ShardOptions {
  /** Environment of the shard processes on top of this process's. */
  env?: Record<string, string>;
  /** Shards running at once. */
  concurrency: number;
  /** Printed before each shard's report, e.g. "json-file". */
  label: string;
}

export interface Counts {
  tests: number;
  passed: number;
  failed: number;
  cancelled: number;
  skipped: number;
  todo: number;
}

export interface ShardsResult {
  counts: Counts;
  /** Every shard exited 0. */
  ok: boolean;
  /** Per file, the time of its top-level tests and suites (ms), slowest first. */
  fileTimes: [string, number][];
  /** The failing shards' "failing tests" sections, each headed by the shard's files. */
  failures: string[];
}

/** The part of a spec report after its counts that names each failure with its error. */
const FAILING_SECTION = /^✖ failing tests:$/m;
/** A failure's section, cut to this many characters: CI logs keep the run's last lines only. */
const FAILURE_CHARS = 4000;

/** The failing tests with their errors, as the spec reporter lists them at its end. */
export function failingSection(spec: string): string | undefined {
  const at = spec.search(FAILING_SECTION);
  if (at < 0) return undefined;
  const section = spec.slice(at).trimEnd();
  return section.length > FAILURE_CHARS ? `${section.slice(0, FAILURE_CHARS)}\n  …` : section;
}

/** Files in `shardCount` groups, dealt in turn so that each gets some of every directory. */
export function dealShards(files: readonly string[], shardCount: number): string[][] {
  const shards: string[][] = Array.from({ length: shardCount }, () => []);
  for (const [i, file] of [...files].sort().entries()) shards[i % shardCount]?.push(file);
  return shards.filter((shard) => shard.length > 0);
}

const COUNT_LINES: Record<string, keyof Counts> = {
  tests: "tests",
  pass: "passed",
  fail: "failed",
  cancelled: "cancelled",
  skipped: "skipped",
  todo: "todo",
};

/** The closing counts of the spec reporter ("ℹ pass 12"); undefined when it never got there. */
function parseCounts(spec: string): Counts | undefined {
  const counts: Counts = { tests: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
  let found = false;
  for (const [, name, value] of spec.matchAll(/^ℹ (\w+) (\d+)$/gm)) {
    const key = COUNT_LINES[name as string];
    if (key) {
      counts[key] = Number(value);
      found = true;
    }
  }
  return found ? counts : undefined;
}

interface ShardRun {
  code: number;
  spec: string;
  timings: string;
  seconds: number;
}

/** Shard processes running now: a SIGTERM to the runner goes on to them. */
const running = new Set<ReturnType<typeof spawn>>();
let forwarding = false;

function forwardSigterm(): void {
  if (forwarding) return;
  forwarding = true;
  process.on("SIGTERM", () => {
    for (const child of running) child.kill("SIGTERM");
  });
}

const TIMING_REPORTER = join(import.meta.dirname, "helpers", "timing-reporter.ts");

async function runShard(
  files: string[],
  isolated: boolean,
  env: NodeJS.ProcessEnv,
  dir: string,
  index: number,
): Promise<ShardRun> {
  const specFile = join(dir, `${index}.spec`);
  const timingFile = join(dir, `${index}.timings`);
  const args = [
    "--test",
    ...(isolated ? [] : ["--test-isolation=none"]),
    "--test-reporter=spec",
    `--test-reporter-destination=${specFile}`,
    `--test-reporter=${TIMING_REPORTER}`,
    `--test-reporter-destination=${timingFile}`,
    ...files,
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"], env });
  running.add(child);
  const code = await new Promise<number>((resolve) =>
    child.on("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
  );
  running.delete(child);
  const read = (file: string) => readFile(file, "utf8").catch(() => "");
  return {
    code,
    spec: await read(specFile),
    timings: await read(timingFile),
    seconds: (performance.now() - started) / 1000,
  };
}

/** Runs `files` in shards, printing each shard's report as it ends. */
export async function runInShards(
  files: readonly string[],
  options: ShardOptions,
): Promise<ShardsResult> {
  const aloneFlags = await Promise.all(files.map(runsAlone));
  const alone = files.filter((_, i) => aloneFlags[i]);
  const together = files.filter((_, i) => !aloneFlags[i]);
  // The files that run alone first: among them is the longest of all, the storage contract on
  // PostgreSQL, which would otherwise end the run long after the others.
  const shards = [
    ...alone.map((file) => ({ files: [file], isolated: true })),
    ...dealShards(together, Math.max(1, Math.ceil(together.length / FILES_PER_SHARD))).map(
      (shard) => ({ files: shard, isolated: false }),
    ),
  ];
  forwardSigterm();
  const env = { ...process.env, ...options.env };
  const dir = await mkdtemp(join(tmpdir(), "wren-test-shards-"));
  const total: Counts = { tests: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
  const fileTimes = new Map<string, number>();
  const failures: string[] = [];
  let ok = true;
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let index = next++; index < shards.length; index = next++) {
      const shard = shards[index] as (typeof shards)[number];
      const run = await runShard(shard.files, shard.isolated, env, dir, index);
      const counts = parseCounts(run.spec);
      done++;
      process.stdout.write(
        `\n── ${options.label} shard ${done}/${shards.length} (${shard.files.length} files, ` +
          `${run.seconds.toFixed(0)} s, exit ${run.code}): ${shard.files.join(" ")}\n${run.spec}`,
      );
      if (run.code !== 0 || !counts || counts.failed > 0 || counts.cancelled > 0) ok = false;
      const failing = failingSection(run.spec);
      if (failing) failures.push(`${shard.files.join(" ")}\n${failing}`);
      if (!counts) {
        // The shard died before its summary: count it as one failure, so the total shows it.
        process.stdout.write(`✖ the shard exited with ${run.code} before its summary\n`);
        total.failed++;
        continue;
      }
      for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += counts[key];
      for (const line of run.timings.split("\n")) {
        if (!line) continue;
        const { file, ms } = JSON.parse(line) as { file: string; ms: number };
        fileTimes.set(file, (fileTimes.get(file) ?? 0) + ms);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const root = `${process.cwd()}/`;
  return {
    counts: total,
    ok,
    failures,
    fileTimes: [...fileTimes]
      .map(([file, ms]): [string, number] => [file.replace(root, ""), ms])
      .sort((a, b) => b[1] - a[1]),
  };
}

/**
 * The closing lines: the failures again (a long run's log may keep only its end), the slowest
 * files, then the counts as one plain line.
 */
export function printSummary(label: string, result: ShardsResult): void {
  for (const failure of result.failures) {
    process.stdout.write(`\n${label}: failed in the shard of ${failure}\n`);
  }
  const slowest = result.fileTimes
    .slice(0, 10)
    .map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
  const { passed, failed, cancelled, skipped, todo, tests } = result.counts;
  process.stdout.write(
    `\n${label}: the 10 slowest files (their tests' time)\n${slowest.join("\n")}\n` +
      `${label}: ${tests} tests, ${cancelled} cancelled, ${todo} todo\n` +
      `${passed} passed, ${failed + cancelled} failed, ${skipped} skipped\n`,
  );
}
