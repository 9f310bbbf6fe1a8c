// Test helpers for running code in a separate Node process (a second process for the lock, a
// writer to SIGKILL for the crash test). Children run the same Node binary as the tests.

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** URL of a module of this backend, for `import` statements inside child scripts. */
export function moduleUrl(relativeToJsonFile: string): string {
  return new URL(`../${relativeToJsonFile}`, import.meta.url).href;
}

/** Starts `node <file.ts> ...args`. */
export function spawnScript(file: string, args: string[] = []): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [file, ...args], { stdio: "pipe" });
}

/** Starts `node --input-type=module -e <code>`. */
export function spawnCode(code: string): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: "pipe" });
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Collects a child's output until it exits. */
export function finished(child: ChildProcessWithoutNullStreams): Promise<ChildResult> {
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Resolves when the child prints `line` (rejects if it exits first). */
export function waitForLine(child: ChildProcessWithoutNullStreams, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (text) => {
      if (text === line) {
        lines.close();
        resolve();
      }
    });
    child.on("exit", (code, signal) =>
      reject(new Error(`child exited (${code ?? signal}) before printing ${line}: ${stderr}`)),
    );
  });
}

/**
 * Runs `node <file> ...args` (a writer printing one line per acknowledged write) until it has
 * printed `target` lines after "ready", SIGKILLs it a random moment (up to 20 ms) later, so the
 * kill lands anywhere in a batch, and hands every line to `onLine`, up to the end of the pipe:
 * lines printed between the kill() and the child's death were acknowledged too.
 */
export async function runUntilKilled(
  file: string,
  args: string[],
  target: number,
  onLine: (line: string) => void,
): Promise<void> {
  const child = spawnScript(file, args);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("exit", (_code, signal) => resolve(signal)),
  );
  let count = 0;
  // A writer that stalls before `target` acks must not hang the test run.
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  for await (const line of createInterface({ input: child.stdout })) {
    onLine(line);
    if (line !== "ready" && ++count === target) {
      setTimeout(() => child.kill("SIGKILL"), Math.random() * 20);
    }
  }
  const signal = await exited;
  clearTimeout(timer);
  if (signal !== "SIGKILL") throw new Error(`the writer died on its own: ${stderr}`);
  if (count < target) throw new Error(`the writer stopped after ${count} acks: ${stderr}`);
}
