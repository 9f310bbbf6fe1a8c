// Entry point of the `wren` command (bin/wren.js imports this file; `npm start` runs it).

import { enableCompileCache } from "node:module";

// Node keeps the compiled code of every module it loads (Wren's, Fedify's and the rest)
// in its compile cache on disk (NODE_COMPILE_CACHE, else under the system's temporary
// directory), so a start after the first skips compiling them again: about a second less.
// Enabled before anything else is imported, hence the dynamic import below.
enableCompileCache();
const { runCli } = await import("./run.ts");

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
