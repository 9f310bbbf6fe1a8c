// `npm test`'s first pass: every test file (unit tests beside the code in src/, the HTTP and
// end-to-end tests in test/) on the default json-file backend, in shards (test/shards.ts). Then
// `npm test` runs test/postgres-pass.ts. Arguments, if any, replace the file patterns.

import { glob } from "node:fs/promises";
import { globalSetup, globalTeardown } from "./postgres-server.ts";
import { printSummary, runInShards } from "./shards.ts";

const PATTERNS = ["src/**/*.test.ts", "test/**/*.test.ts"];

const patterns = process.argv.length > 2 ? process.argv.slice(2) : PATTERNS;
const files = new Set<string>();
for (const pattern of patterns) {
  for await (const file of glob(pattern)) files.add(file);
}
console.log(`json-file pass: ${files.size} test files`);
// The PostgreSQL server of the storage contract tests, and the compile cache every shard shares
// (both reach the shards through the environment).
await globalSetup();
let ok = false;
try {
  const result = await runInShards([...files], { concurrency: 3, label: "json-file" });
  printSummary("json-file", result);
  ok = result.ok && files.size > 0;
} finally {
  await globalTeardown();
}
process.exit(ok ? 0 : 1);
