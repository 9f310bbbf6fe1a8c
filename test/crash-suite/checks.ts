// What must hold after a kill: no torn file anywhere in the data directory; every acknowledged
// write on disk (and every acknowledged delete gone); the restarted server's indexes agreeing
// with a fresh scan of the files; and the job queue still closing polls whose deadline passed.

import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { readJournalEntries } from "../../src/storage/json-file/status-journal.ts";
import { readSnapshot } from "../../src/storage/json-file/status-snapshot.ts";
import type { SeededUser } from "../helpers/wren-process.ts";
import { type Fact, type Ledger, pairKey } from "./ledger.ts";

/** Every record file, parsed, by its path relative to the data directory. */
export interface Scan {
  files: Map<string, unknown>;
  torn: string[];
}

export async function scanDataDir(dataDir: string): Promise<Scan> {
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  const files = new Map<string, unknown>();
  const torn: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(".json")) continue;
    const path = join(entry.parentPath, entry.name);
    const text = await readFile(path, "utf8").catch(() => undefined);
    if (text === undefined) continue; // removed between listing and reading (server running)
    try {
      files.set(relative(dataDir, path), JSON.parse(text));
    } catch {
      torn.push(relative(dataDir, path));
    }
  }
  await applyStatusJournals(dataDir, files);
  return { files, torn };
}

/**
 * A status is acknowledged once its journal line, holding the file's bytes, is durable; its
 * file is renamed into place after (ADR 0065), after the answer (ADR 0084). A write killed between the two is decided by its
 * line: the next start writes the bytes into the file. So the files a start will hold are the
 * files with the journals' last lines laid over them, as status-replay.ts does.
 */
async function applyStatusJournals(dataDir: string, files: Map<string, unknown>): Promise<void> {
  const snapshot = await readSnapshot(dataDir);
  const entries = await readJournalEntries(dataDir, snapshot.ok ? snapshot.journal : 0);
  for (const [name, bytes] of entries) {
    const key = join("statuses", `${name}.json`);
    if (bytes === null) files.delete(key);
    else if (bytes !== undefined) files.set(key, JSON.parse(bytes));
  }
}

interface EdgeRecord {
  accountId: string;
  targetId: string;
}

interface StatusRecord {
  id: string;
  accountId: string;
  text: string;
  deleted?: boolean;
  pollId: string | null;
}

interface PollRecord {
  id: string;
  closedAt: string | null;
}

/** The records of the scan that the checks compare, grouped the way the indexes are. */
class Records {
  readonly statuses = new Map<string, StatusRecord>();
  readonly polls = new Map<string, PollRecord>();
  readonly follows = new Set<string>();
  readonly favourites = new Set<string>();
  readonly votes = new Set<string>();
  readonly favouritesOf = new Map<string, number>();
  readonly votersOf = new Map<string, number>();

  constructor(scan: Scan) {
    for (const [path, record] of scan.files) {
      const folder = path.split("/")[0];
      if (folder === "statuses") {
        const status = record as StatusRecord;
        this.statuses.set(status.id, status);
      } else if (folder === "polls") {
        const poll = record as PollRecord;
        this.polls.set(poll.id, poll);
      } else if (folder === "follows" || folder === "favourites" || folder === "poll-votes") {
        const edge = record as EdgeRecord;
        const key = pairKey(edge.accountId, edge.targetId);
        if (folder === "follows") this.follows.add(key);
        if (folder === "favourites") {
          this.favourites.add(key);
          this.favouritesOf.set(edge.targetId, (this.favouritesOf.get(edge.targetId) ?? 0) + 1);
        }
        if (folder === "poll-votes") {
          this.votes.add(key);
          this.votersOf.set(edge.targetId, (this.votersOf.get(edge.targetId) ?? 0) + 1);
        }
      }
    }
  }

  live(statusId: string): boolean {
    const status = this.statuses.get(statusId);
    return status !== undefined && status.deleted !== true;
  }
}

/** Facts in doubt take the disk's word; certain facts must match it. */
function checkFacts(
  kind: string,
  facts: Map<string, Fact>,
  onDisk: Set<string>,
  applies: (key: string) => boolean,
  problems: string[],
) {
  for (const [key, fact] of facts) {
    const present = onDisk.has(key);
    if (!fact.certain) {
      facts.set(key, { present, certain: true });
    } else if (applies(key) && fact.present !== present) {
      problems.push(`${kind} ${key}: acknowledged ${fact.present ? "present" : "absent"}`);
    }
  }
}

/** Acknowledged writes against the files (server stopped or idle). Settles facts in doubt. */
export function checkAcknowledged(scan: Scan, ledger: Ledger): string[] {
  const problems: string[] = [];
  const records = new Records(scan);
  for (const [id, fact] of ledger.statuses) {
    const record = records.statuses.get(id);
    const gone = record === undefined || record.deleted === true;
    if (!fact.deleted.certain) {
      fact.deleted = { present: gone, certain: true };
      if (!gone && fact.text === undefined) fact.text = record.text;
      continue;
    }
    if (fact.deleted.present && !gone) problems.push(`status ${id}: acknowledged delete undone`);
    if (!fact.deleted.present && gone) problems.push(`status ${id}: acknowledged status missing`);
    if (!gone && fact.text === undefined) fact.text = record.text;
    else if (!gone && record.text !== fact.text) {
      problems.push(`status ${id}: text ${JSON.stringify(record.text)}, acknowledged ${fact.text}`);
    }
  }
  const statusOf = (key: string) => key.split(" ")[1] as string;
  checkFacts("follow", ledger.follows, records.follows, () => true, problems);
  checkFacts(
    "favourite",
    ledger.favourites,
    records.favourites,
    (key) => records.live(statusOf(key)),
    problems,
  );
  checkFacts("vote", ledger.votes, records.votes, () => true, problems);
  return problems;
}

type Json = Record<string, unknown>;

async function getJson(url: string, user: SeededUser, path: string): Promise<{ body: unknown }> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${user.token}` } });
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${await res.text()}`);
  return { body: await res.json() };
}

/** Every status of an account through the API, following `max_id` pages. */
async function allStatuses(url: string, user: SeededUser): Promise<Json[]> {
  const statuses: Json[] = [];
  let maxId = "";
  for (;;) {
    const query = `limit=40${maxId ? `&max_id=${maxId}` : ""}`;
    const { body } = await getJson(url, user, `/api/v1/accounts/${user.id}/statuses?${query}`);
    const page = body as Json[];
    if (page.length === 0) return statuses;
    statuses.push(...page);
    maxId = page[page.length - 1]?.id as string;
  }
}

const sorted = (ids: Iterable<string>) => [...ids].sort().join(",");

/** The running server's lists and counters against a fresh scan of the files. */
export async function checkIndexes(
  url: string,
  users: readonly SeededUser[],
  scan: Scan,
): Promise<string[]> {
  const problems: string[] = [];
  const records = new Records(scan);
  for (const user of users) {
    const onDisk = [...records.statuses.values()].filter(
      (s) => s.accountId === user.id && s.deleted !== true,
    );
    const listed = await allStatuses(url, user);
    if (sorted(listed.map((s) => s.id as string)) !== sorted(onDisk.map((s) => s.id))) {
      problems.push(
        `${user.username}: API lists ${listed.length} statuses, files hold ${onDisk.length}`,
      );
    }
    for (const status of listed) {
      const id = status.id as string;
      const favourites = records.favouritesOf.get(id) ?? 0;
      if (status.favourites_count !== favourites) {
        problems.push(
          `status ${id}: favourites_count ${status.favourites_count}, files ${favourites}`,
        );
      }
      const poll = status.poll as Json | null;
      if (poll) {
        const voters = records.votersOf.get(poll.id as string) ?? 0;
        if (poll.voters_count !== voters) {
          const file = scan.files.get(`polls/${poll.id}.json`) as
            | { votersCount?: number }
            | undefined;
          problems.push(
            `poll ${poll.id}: voters_count ${poll.voters_count}, poll file ${file?.votersCount}, vote files ${voters}`,
          );
        }
      }
    }

    const { body } = await getJson(url, user, `/api/v1/accounts/${user.id}`);
    const account = body as Json;
    const following = users.filter((u) => records.follows.has(pairKey(user.id, u.id))).length;
    const followers = users.filter((u) => records.follows.has(pairKey(u.id, user.id))).length;
    const counts = { statuses_count: onDisk.length, following_count: following };
    for (const [field, expected] of Object.entries({ ...counts, followers_count: followers })) {
      if (account[field] !== expected) {
        problems.push(`${user.username}: ${field} ${account[field]}, files ${expected}`);
      }
    }

    const others = users.filter((u) => u.id !== user.id);
    const query = others.map((u) => `id[]=${u.id}`).join("&");
    const rel = await getJson(url, user, `/api/v1/accounts/relationships?${query}`);
    for (const relationship of rel.body as Json[]) {
      const expected = records.follows.has(pairKey(user.id, relationship.id as string));
      if (relationship.following !== expected) {
        problems.push(`${user.username} → ${relationship.id}: following ${!expected} in the API`);
      }
    }
  }
  return problems;
}

/** Short polls whose deadline passed more than `graceMs` ago must be closed on disk. */
export function overduePolls(scan: Scan, ledger: Ledger, now: number, graceMs: number): string[] {
  const records = new Records(scan);
  return ledger.shortPolls
    .filter((p) => p.expiresAt + graceMs < now && records.polls.get(p.pollId)?.closedAt === null)
    .map((p) => p.pollId);
}
