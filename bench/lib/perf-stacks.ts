// Attribution of Linux `perf` samples (cpu-clock, with call stacks) of a Node process started
// with `--perf-basic-prof --interpreted-frames-native-stack`: each sample is charged to the
// innermost JavaScript frame on its stack, grouped by where that code lives (a package, a Node
// internal module, or a Wren source file). V8's own --cpu-prof charges time the thread spends
// descheduled inside a system call to that call (on these VMs it showed `writev` at 40% of a
// small read); perf's cpu-clock counts only time on a CPU, kernel work included, and engine
// builtins (promise jobs, property lookups, garbage collection) go to the JavaScript that
// caused them.

import { spawn } from "node:child_process";

/** Where a JavaScript frame's code lives: "wren <file>", a package name, or "node:<module>". */
export function codeOwner(frame: string): string {
  const wren = /\/src\/(\S+?):\d+/.exec(frame);
  if (wren && !frame.includes("node_modules")) return `wren ${wren[1]}`;
  const pkg = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(frame);
  if (pkg) return pkg[1] as string;
  const internal = /node:(\S+?):\d+/.exec(frame);
  if (internal) return `node:${internal[1]}`;
  return "other JavaScript";
}

/** What a sample without any JavaScript frame was doing, from its native frames. */
function nativeOwner(frames: readonly string[]): string {
  const stack = frames.join(" ");
  if (/CollectGarbage|Scavenge|Heap::|ConcurrentMarking/.test(stack)) return "(garbage collection)";
  if (/llhttp|http_parser/.test(stack)) return "(HTTP parser)";
  // V8 optimises on background threads, which perf samples with the rest of the process.
  if (/v8::internal::compiler|v8::internal::maglev|Turboshaft/i.test(stack))
    return "(JIT compiler)";
  if (/uv__io_poll|epoll/.test(stack)) return "(event loop)";
  // Kernel text lives at the top of the address space (ffffffff…); the stack may not reach
  // back into user space (interrupts, softirq work such as loopback delivery).
  if (/^f{8}/.test(frames[0] ?? "")) return "(kernel)";
  return "(native, other)";
}

/**
 * Shares of the samples in `perf script -F ip,sym` output (one frame per line, innermost
 * first, a blank line between samples), largest first.
 */
export function attributeSamples(script: string): { owner: string; share: number }[] {
  const counts = new Map<string, number>();
  let total = 0;
  for (const block of script.split(/\n\s*\n/)) {
    const frames = block
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
    if (frames.length === 0) continue;
    total++;
    const js = frames.find((frame) => frame.includes("JS:"));
    const owner = js === undefined ? nativeOwner(frames) : codeOwner(js);
    counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  return [...counts]
    .map(([owner, n]) => ({ owner, share: n / Math.max(total, 1) }))
    .sort((a, b) => b.share - a.share);
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}`)),
    );
  });
}

/** Starts `perf record` on a process; the returned function stops it and attributes the samples. */
export function recordPerf(
  pid: number,
  dataFile: string,
): () => Promise<{ owner: string; share: number }[]> {
  const perf = spawn(
    "perf",
    ["record", "-g", "-e", "cpu-clock", "-F", "999", "-p", String(pid), "-o", dataFile],
    { stdio: "ignore" },
  );
  const exited = new Promise<void>((resolve) => perf.once("exit", () => resolve()));
  return async () => {
    perf.kill("SIGINT");
    await exited;
    return attributeSamples(await run("perf", ["script", "-i", dataFile, "-F", "ip,sym"]));
  };
}
