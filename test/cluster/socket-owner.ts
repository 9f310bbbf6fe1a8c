// Which of some processes holds a TCP connection, from its local port (Linux /proc): a peer that
// sees a delivery arrive learns which worker sent it, so that one can be killed mid-delivery.

import { readdir, readFile, readlink } from "node:fs/promises";

/** The socket inodes of connections whose local port is `port` (IPv4 and IPv6 tables). */
async function inodesOfLocalPort(port: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readFile(table, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      const inode = fields[9];
      if (local?.endsWith(`:${hexPort}`) && inode && inode !== "0") inodes.add(inode);
    }
  }
  return inodes;
}

async function holdsAny(pid: number, inodes: Set<string>): Promise<boolean> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && inodes.has(inode)) return true;
  }
  return false;
}

/** The one of `pids` whose connection has the local port `port`; throws if none does. */
export async function pidWithLocalPort(port: number, pids: readonly number[]): Promise<number> {
  const inodes = await inodesOfLocalPort(port);
  for (const pid of pids) {
    if (await holdsAny(pid, inodes)) return pid;
  }
  throw new Error(`none of ${pids.join(", ")} has a connection from port ${port}`);
}
