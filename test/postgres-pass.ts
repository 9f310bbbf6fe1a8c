// The HTTP tests of the client API, run a second time on PostgreSQL (`npm test` runs this after
// the json-file pass). Each test server gets its own throw-away migrated database
// (test/helpers/server.ts); this run tags their names and drops whatever is left at the end, so a
// crashed or cancelled test file leaves no database behind.
//
// Only the most valuable part runs here (CI must stay under 15 minutes): the API surface whose
// answers come from the stores. Like the json-file pass (test/run.ts), in shards (test/shards.ts). Left out, still run on json-file:
// media, instance, http, web, story, limits, maintenance, emojis, announcements, the federation
// directory but for one multi-instance file (each of the others passed on PostgreSQL when it was
// written: mentions, featured tags, CSV imports), the streaming API across servers (two
// processes on one database: test/cluster/streaming.test.ts), sign-up mail and push delivery
// (their stores are the key-value store and the subscriptions, run here through the other files). Those directories pass on PostgreSQL
// too (checked once, by hand) except tests of json-file's own behaviour, to exclude if they are
// added: limits/api-rate-limit.test.ts (in-memory caller cap; shared counters hold none),
// maintenance/deleted-status-follow-ups.test.ts (rewrites and reads status files, the snapshot),
// media/lifecycle.test.ts "keeps exactly one cleanup scheduled" (a sole process's restart; on a
// shared storage a due run's successor is kept and the runner may take the due run at once).

import { randomBytes } from "node:crypto";
import { glob } from "node:fs/promises";
import { globalSetup, globalTeardown } from "./postgres-server.ts";
import { printSummary, runInShards } from "./shards.ts";

const INCLUDED = [
  "test/statuses/**/*.test.ts",
  "test/timelines/**/*.test.ts",
  "test/accounts/**/*.test.ts",
  "test/sign-up/approval-invites.test.ts",
  "test/interactions/**/*.test.ts",
  "test/notifications/**/*.test.ts",
  "test/polls/**/*.test.ts",
  "test/graph/**/*.test.ts",
  "test/markers/**/*.test.ts",
  "test/push/subscription.test.ts",
  "test/lists/**/*.test.ts",
  "test/collections/**/*.test.ts",
  "test/conversations/**/*.test.ts",
  "test/search/**/*.test.ts",
  "test/tags/**/*.test.ts",
  "test/oauth/**/*.test.ts",
  "test/reports/**/*.test.ts",
  "test/admin/**/*.test.ts",
  "test/filters/**/*.test.ts",
  "test/discovery/**/*.test.ts",
  "test/streaming/streaming.test.ts",
  "test/federation/multi-instance/follow.test.ts",
];

/** json-file-specific tests, each with why it has no meaning on PostgreSQL. */
const EXCLUDED: Record<string, string> = {
  "test/polls/count-repair.test.ts":
    "rewrites a poll file on disk to simulate a kill between the vote and the poll write",
};

async function testFiles(): Promise<string[]> {
  const files = new Set<string>();
  for (const pattern of INCLUDED) {
    for await (const file of glob(pattern)) files.add(file);
  }
  for (const excluded of Object.keys(EXCLUDED)) {
    if (!files.delete(excluded)) throw new Error(`${excluded} is excluded but not selected`);
  }
  return [...files].sort();
}

const tag = randomBytes(4).toString("hex");
const files = await testFiles();
console.log(`PostgreSQL pass: ${files.length} test files`);
// The same server choice as the json-file pass (test/postgres-server.ts): it sets
// WREN_TEST_POSTGRES_URL, which the test processes inherit.
await globalSetup();
let code = 1;
// Ctrl-C reaches the shards too (same process group); wait for them, then sweep.
process.on("SIGINT", () => {});
try {
  const result = await runInShards(files, {
    // One more than the json-file pass: these shards wait on PostgreSQL (its CPU is not theirs),
    // so four keep the two cores busy where three left a third of them idle.
    concurrency: 4,
    label: "PostgreSQL",
    env: { WREN_TEST_STORAGE: "postgres", WREN_TEST_DATABASE_TAG: tag },
  });
  printSummary("PostgreSQL", result);
  code = result.ok && files.length > 0 ? 0 : 1;
} finally {
  try {
    // Imported only now: it reads WREN_TEST_POSTGRES_URL as it loads.
    const { dropTempDatabases } = await import("../src/storage/postgres/testing/temp-database.ts");
    const left = await dropTempDatabases(tag);
    if (left.length > 0) {
      console.error(`Dropped ${left.length} test databases left behind: ${left.join(", ")}`);
    }
  } finally {
    await globalTeardown();
  }
}
process.exit(code);
