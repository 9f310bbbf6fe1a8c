#!/usr/bin/env node
// Launcher for the `wren` command. Wren is TypeScript run by Node's type stripping, which needs
// Node 24; the project pins it through the `node` npm package. When this launcher is started by
// an older system Node (npx, a shell), it re-runs the command with the pinned binary.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "src", "cli", "main.ts");
const major = Number(process.versions.node.split(".")[0]);

if (major >= 24) {
  await import(entry);
} else {
  const pinned = join(root, "node_modules", "node", "bin", "node");
  if (!existsSync(pinned)) {
    process.stderr.write(
      "wren needs Node.js 24 or newer; run `npm install` in the Wren folder first.\n",
    );
    process.exit(1);
  }
  const child = spawn(pinned, [entry, ...process.argv.slice(2)], { stdio: "inherit" });
  // Signals sent to this launcher (systemd, `kill`, a supervisor) go to the real process, so
  // that `wren serve` shuts down gracefully instead of being orphaned.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code, signal) => {
    process.exit(code ?? (signal === "SIGINT" ? 130 : 1));
  });
}
