// The json-file storage backend (the default): one JSON file per record under a data directory,
// indexes in memory, crash-safe group-committed writes, and a lock file against a second process.

import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { ListMember } from "../../domain/list.ts";
import type { PollVote } from "../../domain/poll.ts";
import type { QuoteEdge } from "../../domain/quote.ts";
import type {
  AccountDomainBlock,
  AccountNote,
  Block,
  Bookmark,
  ConversationMute,
  Edge,
  Endorsement,
  Favourite,
  FeaturedTag,
  Follow,
  FollowRequest,
  Mute,
  NotificationPermission,
  Pin,
  SuggestionDismissal,
  TagFollow,
} from "../../domain/relations.ts";
import { PRIVATE_DIR_MODE } from "../../private-modes.ts";
import { createInProcessBroadcast } from "../in-process/broadcast.ts";
import { createInProcessCoordination } from "../in-process/coordination.ts";
import { joinedReadsOf } from "../in-process/joined-reads.ts";
import type { StatusStore, Storage } from "../ports.ts";
import { type LastStatusTimes, openAccountStore } from "./account-store.ts";
import { openAnnouncementReactionStore } from "./announcement-reaction-store.ts";
import { openAnnouncementStore } from "./announcement-store.ts";
import { openAppStore } from "./app-store.ts";
import { openAuthorizationCodeStore } from "./authorization-code-store.ts";
import { openCollectionStore } from "./collection-store.ts";
import { openConversationStore } from "./conversation-store.ts";
import { openCustomEmojiStore } from "./custom-emoji-store.ts";
import { dumpDataDirectory } from "./dump.ts";
import { DurableWriter, removeLeftoverTempFiles } from "./durable-writer.ts";
import { openEdgeStore } from "./edge-store.ts";
import { openFilterStore } from "./filter-store.ts";
import { openIdempotencyStore } from "./idempotency-store.ts";
import type { JobJournalOptions } from "./job-journal.ts";
import { openJobStore } from "./job-store.ts";
import { writingDoneRecords } from "./jobs-writing-done-records.ts";
import { openKvStore } from "./kv-store.ts";
import { openListStore } from "./list-store.ts";
import { acquireLock } from "./lock.ts";
import { openMarkerStore } from "./marker-store.ts";
import { openMediaStore } from "./media-store.ts";
import { openNotificationStore } from "./notification-store.ts";
import { openPollStore } from "./poll-store.ts";
import { openPushSubscriptionStore } from "./push-subscription-store.ts";
import { inspectWith, type LoadInspector } from "./quarantine.ts";
import { openReportStore } from "./report-store.ts";
import { openScheduledStatusStore } from "./scheduled-status-store.ts";
import { openStatusEditStore } from "./status-edit-store.ts";
import type { StatusRecordsOptions } from "./status-records.ts";
import { readSnapshot, type SnapshotResult } from "./status-snapshot.ts";
import { openStatusStore } from "./status-store.ts";
import { tightenDataDirectory } from "./tighten-modes.ts";
import { openTokenStore } from "./token-store.ts";
import { openUserStore } from "./user-store.ts";
import type { WriteFaults } from "./write-faults.ts";

export { readLockHolder } from "./lock.ts";
export { WriteFaults } from "./write-faults.ts";

export interface JsonFileOptions {
  /** Tests only: simulated disk faults (write-faults.ts). */
  writeFaults?: WriteFaults;
  /**
   * For `wren doctor`: every status file is read (the snapshot is not trusted), damaged files go
   * to the inspector instead of being moved aside, and no mode is tightened, no temporary file
   * swept and no snapshot written at close (only the repairs any open makes, such as removing
   * the older of two edges a crash left for one pair).
   */
  inspect?: LoadInspector;
  /** Tests and benchmarks only: the status records' snapshot cadence and heap watch. */
  statuses?: Pick<StatusRecordsOptions, "checkpointEvery" | "heap">;
  /** Tests only: the job journal's compaction cadence. */
  jobJournal?: Pick<JobJournalOptions, "compactAfter">;
}

/** Opens (creating if needed) the data directory `dir`; throws if another process holds it. */
export async function openJsonFileStorage(
  dir: string,
  options: JsonFileOptions = {},
): Promise<Storage> {
  const { inspect } = options;
  const root = resolve(dir);
  await mkdir(root, { recursive: true, mode: PRIVATE_DIR_MODE });
  const lock = await acquireLock(root);
  try {
    // Before anything is read: secrets written by an older Wren become private at once.
    if (!inspect) await tightenDataDirectory(root);
    // Read before the sweep: a usable snapshot proves `statuses/` unchanged since a clean
    // close, so it holds no temporary file, and skipping its million entries saves seconds.
    const statusSnapshot: SnapshotResult = inspect
      ? { ok: false, reason: "missing" }
      : await readSnapshot(root);
    // Only after taking the lock: temporary files of a live writer must not be swept.
    if (!inspect) await removeLeftoverTempFiles(root, statusSnapshot.ok ? ["statuses"] : []);
    if (!inspect && statusSnapshot.ok) {
      // The folders our journaled writes changed since the snapshot may hold leftovers.
      const folders = new Set([...statusSnapshot.changed].map((p) => p.slice(0, p.indexOf("/"))));
      for (const folder of folders) await removeLeftoverTempFiles(join(root, "statuses", folder));
      // The status filer's temporary files are in `statuses/` itself (ADRs 0065, 0084).
      await removeLeftoverTempFiles(join(root, "statuses"), ["*"]);
    }
    const writer = new DurableWriter({ faults: options.writeFaults });
    if (inspect) inspectWith(writer, inspect);
    const edges = <E extends Edge>(folder: string) => openEdgeStore<E>(root, writer, folder);
    // The directory orders accounts by their newest status, which the status store knows.
    let statusStore: Promise<StatusStore> | undefined;
    const lastStatusTimes: LastStatusTimes = async (ids) => {
      const facts = statusStore ? await (await statusStore).accountFacts(ids) : new Map();
      return new Map(ids.map((id) => [id, facts.get(id)?.lastStatusAt ?? null]));
    };
    const jobs = openJobStore(root, writer, {
      ...options.jobJournal,
      readOnlyOpen: inspect !== undefined,
      ...(options.writeFaults ? { faults: options.writeFaults } : {}),
    });
    const stores = {
      accounts: openAccountStore(root, writer, lastStatusTimes),
      users: openUserStore(root, writer),
      apps: openAppStore(root, writer),
      tokens: openTokenStore(root, writer),
      authorizationCodes: openAuthorizationCodeStore(root, writer),
      statuses: openStatusStore(root, writer, { ...options.statuses, snapshot: statusSnapshot }),
      statusEdits: openStatusEditStore(root, writer),
      follows: edges<Follow>("follows"),
      followRequests: edges<FollowRequest>("follow-requests"),
      blocks: edges<Block>("blocks"),
      mutes: edges<Mute>("mutes"),
      favourites: edges<Favourite>("favourites"),
      bookmarks: edges<Bookmark>("bookmarks"),
      pins: edges<Pin>("pins"),
      conversationMutes: edges<ConversationMute>("conversation-mutes"),
      tagFollows: edges<TagFollow>("tag-follows"),
      featuredTags: edges<FeaturedTag>("featured-tags"),
      accountNotes: edges<AccountNote>("account-notes"),
      accountDomainBlocks: edges<AccountDomainBlock>("account-domain-blocks"),
      notificationPermissions: edges<NotificationPermission>("notification-permissions"),
      endorsements: edges<Endorsement>("endorsements"),
      suggestionDismissals: edges<SuggestionDismissal>("suggestion-dismissals"),
      quotes: edges<QuoteEdge>("quotes"),
      idempotency: openIdempotencyStore(root, writer),
      polls: openPollStore(root, writer),
      pollVotes: edges<PollVote>("poll-votes"),
      notifications: openNotificationStore(root, writer),
      announcements: openAnnouncementStore(root, writer),
      announcementDismissals: edges<Edge>("announcement-dismissals"),
      announcementReactions: openAnnouncementReactionStore(root, writer),
      customEmojis: openCustomEmojiStore(root, writer),
      reports: openReportStore(root, writer),
      scheduledStatuses: openScheduledStatusStore(root, writer),
      markers: openMarkerStore(root, writer),
      pushSubscriptions: openPushSubscriptionStore(root, writer),
      lists: openListStore(root, writer),
      listMembers: edges<ListMember>("list-members"),
      collections: openCollectionStore(root, writer),
      filters: openFilterStore(root, writer),
      conversations: openConversationStore(root, writer),
      jobs,
      media: openMediaStore(root, writer),
      // The inbox's once-records are lines of the job journal (ADR 0052).
      kv: jobs.then((opened) => openKvStore(root, writer, opened.entryJournal)),
    };
    statusStore = stores.statuses;
    // Opened in parallel; a failure of one still waits for the others before the lock goes.
    const opened = await Promise.allSettled(Object.values(stores));
    const failure = opened.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failure) throw failure.reason;
    const ready = {} as { [K in keyof typeof stores]: Awaited<(typeof stores)[K]> };
    for (const key of Object.keys(stores) as (keyof typeof stores)[]) {
      (ready as Record<string, unknown>)[key] = await stores[key];
    }
    writingDoneRecords(ready.jobs, ready.kv);
    let closing: Promise<void> | undefined;
    const coordination = createInProcessCoordination(ready.kv);
    return {
      ...ready,
      coordination,
      broadcast: createInProcessBroadcast(),
      joined: joinedReadsOf(ready),
      version: () => writer.version,
      versionOf: (kinds) => writer.versionOf(kinds),
      dump: () => dumpDataDirectory(root),
      close() {
        closing ??= (async () => {
          try {
            try {
              await ready.statuses.closeWrites();
              await coordination.close();
              await writer.close();
            } finally {
              // Its file is closed even when a step above failed: a descriptor left open would
              // outlive the storage (closed only by the garbage collector).
              await ready.jobs.closeJournal();
            }
            // Every status write is durable now and no new one is accepted: the snapshot
            // describes the files exactly (ADR 6). An inspection writes nothing.
            if (!inspect) await ready.statuses.checkpoint();
          } finally {
            await lock.release();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
