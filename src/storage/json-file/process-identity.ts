// Which process holds the data directory lock, told apart from a later process that got the same
// pid. A pid alone is reused: a container without an init runs Wren as pid 1 every time, so the
// lock of a killed server names the very pid of the next one. On Linux a process is also known
// by its start time (field 22 of /proc/<pid>/stat, clock ticks since boot) and the boot it ran in
// (/proc/sys/kernel/random/boot_id); pid, start and boot together name one process for good.
// Elsewhere only the pid is known, and liveness falls back to it.

import { readFileSync } from "node:fs";

export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot (Linux); undefined where unknown. */
  start?: string | undefined;
  /** Boot id of the machine (Linux); undefined where unknown. */
  boot?: string | undefined;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined; // not Linux, no /proc, or the process is gone
  }
}

/** Field 22 of /proc/<pid>/stat. The name (field 2) may hold spaces and ")": skip past it. */
export function startTimeOf(pid: number | "self"): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = fields[22 - 3];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

export function currentBootId(): string | undefined {
  return readProc("/proc/sys/kernel/random/boot_id")?.trim() || undefined;
}

let own: ProcessIdentity | undefined;

export function ownIdentity(): ProcessIdentity {
  own ??= { pid: process.pid, start: startTimeOf("self"), boot: currentBootId() };
  return own;
}

/** The lock file's text: the pid on the first line (what older Wren wrote), then the rest. */
export function formatIdentity(identity: ProcessIdentity): string {
  const lines = [String(identity.pid)];
  if (identity.start !== undefined) lines.push(`start ${identity.start}`);
  if (identity.boot !== undefined) lines.push(`boot ${identity.boot}`);
  return `${lines.join("\n")}\n`;
}

/** Reads `formatIdentity`'s text (or an older lock's bare pid); null if it names no pid. */
export function parseIdentity(text: string): ProcessIdentity | null {
  const [first = "", ...rest] = text.trim().split("\n");
  const pid = /^\s*\d+\s*$/.test(first) ? Number(first) : Number.NaN;
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  const identity: ProcessIdentity = { pid };
  for (const line of rest) {
    const [name, value] = line.trim().split(/\s+/, 2);
    if (name === "start" && value && /^\d+$/.test(value)) identity.start = value;
    if (name === "boot" && value) identity.boot = value;
  }
  return identity;
}

/** `process.kill(pid, 0)` checks existence without sending anything; only ESRCH means gone. */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Whether the process named is still running: its pid exists and, where the start time and boot
 * id can be read, they are the recorded ones (else that pid now belongs to another process).
 */
export function isRunning(identity: ProcessIdentity): boolean {
  if (!isPidAlive(identity.pid)) return false;
  if (identity.boot !== undefined) {
    const boot = currentBootId();
    if (boot !== undefined && boot !== identity.boot) return false;
  }
  if (identity.start !== undefined) {
    const start = startTimeOf(identity.pid);
    if (start !== undefined && start !== identity.start) return false;
  }
  return true;
}
