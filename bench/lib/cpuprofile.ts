// Summarises a V8 .cpuprofile (as written by `node --cpu-prof`): the functions with the most
// self time, as shares of all samples. Shared by bench/profile.ts and bench/inbox.ts.

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The first .cpuprofile file in `dir`. */
export async function profileIn(dir: string): Promise<string> {
  const [file] = (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile written in ${dir}`);
  return join(dir, file);
}

/** Lines of "share  function file:line" for the `count` functions with the most self time. */
export async function topSelfTime(file: string, count = 40): Promise<string[]> {
  const profile = JSON.parse(await readFile(file, "utf8")) as { nodes: ProfileNode[] };
  const selfHits = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^.*\/(node_modules|src)\//, "$1/");
    const key = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
    selfHits.set(key, (selfHits.get(key) ?? 0) + hits);
  }
  return [...selfHits]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, hits]) => `${((hits / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}
