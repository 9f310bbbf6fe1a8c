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
