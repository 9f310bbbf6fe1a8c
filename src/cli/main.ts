// Entry point of the `wren` command (bin/wren.js imports this file; `npm start` runs it).

import { runCli } from "./run.ts";

// A reader that went away (`wren serve | head`) must not crash the server when it next prints;
// what is lost is only screen output.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// Whatever is left (a lingering connection, a timer) must not keep a finished command alive.
setTimeout(() => process.exit(code), 5000).unref();
