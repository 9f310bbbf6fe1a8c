// Storage.dump for the json-file backend: reads the record files of the data directory (the
// layout of DESIGN §4), one kind after the other. Files are named by their record's dump key
// (`<id>.json`, `<account>/<id>.json`), so a kind is listed in order by sorting file names and
// reading the files one by one; only the key–value entries and markers, whose names are hashes,
// are read first and sorted in memory (both are small). Jobs are the `jobs/` files and the job
// journal's live jobs (ADR 0044), merged by id; key–value entries the files and the journal's
// entries (ADR 0052).

import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import {
  compareDumpKeys,
  type DumpedRecord,
  dumpKey,
  RECORD_KINDS,
  type RecordKind,
} from "../../domain/record-dump.ts";
import { ignoreCode } from "./durable-writer.ts";
import { readJobJournals } from "./job-journal.ts";

const FOLDERS: Record<RecordKind, string> = {
  accounts: "accounts",
  users: "users",
  apps: "apps",
  tokens: "tokens",
  authorizationCodes: "authorization-codes",
  statuses: "statuses",
  statusEdits: "status-edits",
  polls: "polls",
  pollVotes: "poll-votes",
  media: "media-attachments",
  scheduledStatuses: "scheduled-statuses",
  follows: "follows",
  followRequests: "follow-requests",
  blocks: "blocks",
  mutes: "mutes",
  favourites: "favourites",
  bookmarks: "bookmarks",
  pins: "pins",
  conversationMutes: "conversation-mutes",
  tagFollows: "tag-follows",
  featuredTags: "featured-tags",
  accountNotes: "account-notes",
  accountDomainBlocks: "account-domain-blocks",
  notificationPermissions: "notification-permissions",
  endorsements: "endorsements",
  suggestionDismissals: "suggestion-dismissals",
  quotes: "quotes",
  notifications: "notifications",
  conversations: "conversations",
  markers: "markers",
  pushSubscriptions: "push-subscriptions",
  lists: "lists",
  listMembers: "list-members",
  collections: "collections",
  filters: "filters",
  announcements: "announcements",
  announcementDismissals: "announcement-dismissals",
  announcementReactions: "announcement-reactions",
  customEmojis: "custom-emojis",
  reports: "reports",
  idempotency: "idempotency",
  jobs: "jobs",
  kv: "kv",
};

/** Kinds whose file names are not their dump keys. */
const NAMED_BY_HASH: ReadonlySet<RecordKind> = new Set(["kv", "markers"]);

/** `.json` files under `dir`, one level of subfolders deep at most, as paths. */
async function recordFiles(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true }).catch(ignoreCode("ENOENT"))) ?? [];
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name.endsWith(".json")) files.push(path);
    else if (entry.isDirectory()) {
      for (const inner of await readdir(path, { withFileTypes: true })) {
        if (inner.isFile() && inner.name.endsWith(".json")) files.push(join(path, inner.name));
      }
    }
  }
  return files;
}

async function readRecord(path: string): Promise<object> {
  return JSON.parse(await readFile(path, "utf8")) as object;
}

export async function* dumpDataDirectory(root: string): AsyncGenerator<DumpedRecord> {
  for (const kind of RECORD_KINDS) {
    const files = await recordFiles(join(root, FOLDERS[kind]));
    if (NAMED_BY_HASH.has(kind)) {
      const records = await Promise.all(files.map(readRecord));
      // The key–value entries kept in the job journal (ADR 0052); a line replaces a file.
      const lines = kind === "kv" ? [...(await readJobJournals(root)).entries.values()] : [];
      const byKey = new Map<string, object>();
      for (const record of [...records, ...lines]) byKey.set(dumpKey(kind, record), record);
      const keyed = [...byKey].map(([key, record]) => ({ key, record }));
      keyed.sort((a, b) => compareDumpKeys(a.key, b.key));
      for (const { record } of keyed) yield { kind, record };
      continue;
    }
    const keyed: { key: string; read: () => Promise<object> }[] = files.map((path) => ({
      key: basename(path, ".json"),
      read: () => readRecord(path),
    }));
    if (kind === "jobs") {
      for (const [id, job] of (await readJobJournals(root)).jobs) {
        keyed.push({ key: id, read: async () => job });
      }
    }
    keyed.sort((a, b) => compareDumpKeys(a.key, b.key));
    for (const { read } of keyed) yield { kind, record: await read() };
  }
}
