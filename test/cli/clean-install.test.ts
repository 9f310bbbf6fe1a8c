// The install and the `wren` command run under whatever Node.js the machine has (npm itself runs
// on it), while the server runs on the pinned Node.js 24. Neither may bury the user in warnings:
// dependencies that declare `engines: node >= 22` and the project's own `engines` once printed
// dozens of EBADENGINE blocks on a system Node 20.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The first `name` on PATH that the project's own node_modules did not put there. */
function systemBinary(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "" || resolve(dir).startsWith(join(root, "node_modules"))) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return realpathSync(candidate);
  }
  return undefined;
}

// npm's launcher scripts start with `#!/usr/bin/env node`, which inside `npm test` finds the
// pinned Node 24 first; the machine's own Node is named explicitly to reproduce a user's shell.
const systemNode = systemBinary("node") ?? process.execPath;

function npmCli(): string {
  const npm = systemBinary("npm");
  assert.ok(npm, "npm is not on PATH");
  return npm;
}

function runNpmCli(script: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(systemNode, [script, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe("installing and running the wren command on the machine's Node.js", () => {
  it("npm install prints no warnings", () => {
    const { status, output } = runNpmCli(npmCli(), [
      "install",
      "--dry-run",
      "--offline",
      "--no-audit",
      "--no-fund",
    ]);
    assert.equal(status, 0, output);
    assert.doesNotMatch(output, /npm warn|EBADENGINE/i, output);
  });

  it("npx wren prints only the command's own output", () => {
    const npx = join(dirname(npmCli()), "npx-cli.js");
    const { status, output } = runNpmCli(npx, ["--offline", "wren", "--help"]);
    assert.equal(status, 0, output);
    assert.doesNotMatch(output, /npm warn|EBADENGINE/i, output);
    assert.match(output, /^Usage: wren COMMAND/m);
  });
});
