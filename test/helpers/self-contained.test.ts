/**
 * The tests must run from any clone: nothing they load may live outside the repository
 * (a copy of Mastodon's OpenAPI description beside CI's clone once made 379 tests fail
 * everywhere else). Two checks: no source file names a path leaving the repository, and
 * the response-schema helper's own tests pass under Node's permission model with reads
 * allowed only inside the repository (and the installed dependencies).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const self = fileURLToPath(import.meta.url);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return /\.(?:ts|js|mjs|json)$/.test(entry.name) ? [path] : [];
  });
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== "..");
}

/** Node run with file reads allowed only in the repository and its dependencies. */
function runConfined(args: string[]) {
  const modules = realpathSync(join(root, "node_modules"));
  return spawnSync(
    process.execPath,
    ["--permission", `--allow-fs-read=${root}*`, `--allow-fs-read=${modules}${sep}*`, ...args],
    // Without the runner's context the child reports in text rather than to this runner.
    {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, NODE_TEST_CONTEXT: undefined },
    },
  );
}

describe("the test suite is self-contained", () => {
  const files = ["src", "test", "bench"].flatMap((d) => sourceFiles(join(root, d)));

  it("names no path outside the repository", () => {
    const offenders: string[] = [];
    for (const file of files) {
      if (file === self) continue;
      const text = readFileSync(file, "utf8");
      const where = relative(root, file);
      // The copy of Mastodon's OpenAPI file beside CI's clone, or any path of this machine.
      if (/shared\/mastodon-openapi|["'`]\/work\//.test(text))
        offenders.push(`${where}: names a machine path`);
      // Paths built relative to the module itself must stay in the repository.
      for (const [, target] of text.matchAll(
        /new URL\(\s*["'`](\.{1,2}\/?[^"'`]*)["'`],\s*import\.meta\.url/g,
      )) {
        const resolved = resolve(dirname(file), target as string);
        if (!inside(resolved, root)) offenders.push(`${where}: ${target} leaves the repository`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it("validates responses without reading outside the repository", () => {
    const run = runConfined([join(root, "test/helpers/openapi.test.ts")]);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /pass [1-9]/);
    assert.match(run.stdout, /fail 0/);
  });

  it("the confinement refuses a read outside the repository", () => {
    const outside = join(root, "..", "outside-the-repository.json");
    const run = runConfined(["-e", `require("node:fs").readFileSync(${JSON.stringify(outside)})`]);
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /ERR_ACCESS_DENIED/);
  });
});
