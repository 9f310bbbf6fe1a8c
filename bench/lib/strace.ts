// System calls of a running server counted by `strace -c` attached to every thread it has
// (libuv's thread pool makes the file system calls), for as long as the caller measures. strace
// slows the server down: time its load separately from any CPU or rate figure.

import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";

/** strace -c's summary table: calls per system call, for the names in `calls`. */
export function parseStraceSummary(text: string, calls: readonly string[]): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const fields = line.trim().split(/\s+/);
    const name = fields.at(-1) as string;
    if (calls.includes(name)) {
      // `% time seconds usecs/call calls [errors] syscall`
      counted[name] = Number(fields[3]);
    }
  }
  return counted;
}

/** Attaches strace (summary into `file`) to every thread of `pid` until the returned stop. */
export async function traceThreads(
  pid: number,
  file: string,
  calls: readonly string[],
): Promise<() => Promise<void>> {
  const threads = await readdir(`/proc/${pid}/task`);
  const args = ["-f", "-c", "-o", file, "-e", `trace=${calls.join(",")}`];
  const strace = spawn("strace", [...args, ...threads.flatMap((t) => ["-p", t])], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  strace.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  // strace says it attached to each thread before tracing them.
  await new Promise((r) => setTimeout(r, 500));
  return () =>
    new Promise((resolve, reject) => {
      strace.once("exit", (code) =>
        code === 0 || code === null ? resolve() : reject(new Error(`strace: ${stderr}`)),
      );
      strace.kill("SIGINT");
    });
}
