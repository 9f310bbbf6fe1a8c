// The PostgreSQL storage backend: every port on one database shared by any number of Wren
// processes. Records are rows with the columns their queries need plus the whole record as
// jsonb (ADR 0014); writes that span records run in transactions; other processes' writes reach
// Storage.version() through LISTEN/NOTIFY.

import { randomBytes } from "node:crypto";
import type { Job } from "../../domain/job.ts";
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
import type { EdgeKind, EdgeStore, Storage } from "../ports.ts";
import { createAccountCountsMemo } from "./account-counts-memo.ts";
import { createAccountStore } from "./account-store.ts";
import { createAnnouncementReactionStore } from "./announcement-reaction-store.ts";
import { createAnnouncementStore } from "./announcement-store.ts";
import { createAppStore } from "./app-store.ts";
import { createAuthorizationCodeStore } from "./authorization-code-store.ts";
import { createPostgresBroadcast } from "./broadcast.ts";
import { createChanges, listenForChanges } from "./changes.ts";
import { createCollectionStore } from "./collection-store.ts";
import { connectPostgres, type PostgresConnection } from "./connect.ts";
import type { PgContext } from "./context.ts";
import { createConversationStore } from "./conversation-store.ts";
import { openCoordination } from "./coordination.ts";
import { createCustomEmojiStore } from "./custom-emoji-store.ts";
import { dumpDatabase } from "./dump.ts";
import { createEdgeMemo } from "./edge-memo.ts";
import { createEdgeStore, EDGE_KINDS } from "./edge-store.ts";
import { createFilterStore } from "./filter-store.ts";
import { createIdempotencyStore } from "./idempotency-store.ts";
import { type CallGate, InFlight, tracked } from "./in-flight.ts";
import { createJobStore } from "./job-store.ts";
import { createJoinedReads } from "./joined-reads.ts";
import { withKeptFollowerCounts } from "./kept-follower-counts.ts";
import { createKvStore } from "./kv-store.ts";
import { createListStore } from "./list-store.ts";
import { createMarkerStore } from "./marker-store.ts";
import { createMediaStore } from "./media-store.ts";
import { pendingMigrations } from "./migrate.ts";
import { createNotificationStore } from "./notification-store.ts";
import { createOutbox } from "./outbox.ts";
import { createPollStore } from "./poll-store.ts";
import { createPushSubscriptionStore } from "./push-subscription-store.ts";
import { createReportStore } from "./report-store.ts";
import { createScheduledStatusStore } from "./scheduled-status-store.ts";
import { createStatusEditStore } from "./status-edit-store.ts";
import { createStatusStore } from "./status-store.ts";
import { createTokenStore } from "./token-store.ts";
import { createUserStore } from "./user-store.ts";

export type { PostgresConnection } from "./connect.ts";

/** How long close() lets running store calls finish before ending the pool anyway. */
const CLOSE_WAIT_MS = 10_000;

/** Thrown when the database lacks migrations this Wren needs (`wren db migrate` applies them). */
export class PendingMigrationsError extends Error {
  readonly pending: string[];
  constructor(pending: string[]) {
    super(
      `The database needs ${pending.length} migration(s) (${pending.join(", ")}): run \`wren db migrate\` first.`,
    );
    this.name = "PendingMigrationsError";
    this.pending = pending;
  }
}

export async function openPostgresStorage(connection: PostgresConnection): Promise<Storage> {
  // Unique per opened storage (per process in production): names its writes' change signals.
  const applicationName = connection.applicationName ?? `wren-${randomBytes(6).toString("hex")}`;
  const sql = connectPostgres({ ...connection, applicationName });
  try {
    const pending = await pendingMigrations(sql);
    if (pending.length > 0) throw new PendingMigrationsError(pending);
    const changes = createChanges();
    const unlisten = await listenForChanges(sql, changes, applicationName);
    const coordination = await openCoordination(sql);
    const broadcast = createPostgresBroadcast(sql);
    // Set once the job store exists: the outbox stores a job alone through it.
    let putJob: (job: Job) => Promise<void> = async () => {};
    const outbox = createOutbox((job) => putJob(job));
    const db: PgContext = { sql, changes, outbox, self: applicationName };
    // One memo of edges for every kind: the joined reads ask several kinds at once.
    const edgeMemo = createEdgeMemo(sql, changes);
    // The accounts' counters: loaded by the joined reads, kept by a status put too.
    const accountCounts = createAccountCountsMemo(changes);
    const edges = <E extends Edge>(kind: EdgeKind): EdgeStore<E> =>
      createEdgeStore<E>(db, EDGE_KINDS[kind], edgeMemo);
    let closing: Promise<void> | undefined;
    const stores = {
      accounts: createAccountStore(db),
      users: createUserStore(db),
      apps: createAppStore(db),
      tokens: createTokenStore(db),
      authorizationCodes: createAuthorizationCodeStore(db),
      statuses: createStatusStore(db, accountCounts),
      statusEdits: createStatusEditStore(db),
      // "Has it followers here?", asked of every inbox Create's sender (ADR 0057).
      follows: withKeptFollowerCounts(edges<Follow>("follows"), accountCounts),
      followRequests: edges<FollowRequest>("followRequests"),
      blocks: edges<Block>("blocks"),
      mutes: edges<Mute>("mutes"),
      favourites: edges<Favourite>("favourites"),
      bookmarks: edges<Bookmark>("bookmarks"),
      pins: edges<Pin>("pins"),
      conversationMutes: edges<ConversationMute>("conversationMutes"),
      tagFollows: edges<TagFollow>("tagFollows"),
      featuredTags: edges<FeaturedTag>("featuredTags"),
      accountNotes: edges<AccountNote>("accountNotes"),
      accountDomainBlocks: edges<AccountDomainBlock>("accountDomainBlocks"),
      notificationPermissions: edges<NotificationPermission>("notificationPermissions"),
      endorsements: edges<Endorsement>("endorsements"),
      suggestionDismissals: edges<SuggestionDismissal>("suggestionDismissals"),
      quotes: edges<QuoteEdge>("quotes"),
      idempotency: createIdempotencyStore(db),
      polls: createPollStore(db),
      pollVotes: edges<PollVote>("pollVotes"),
      notifications: createNotificationStore(db),
      announcements: createAnnouncementStore(db),
      announcementDismissals: edges<Edge>("announcementDismissals"),
      announcementReactions: createAnnouncementReactionStore(db),
      customEmojis: createCustomEmojiStore(db),
      reports: createReportStore(db),
      scheduledStatuses: createScheduledStatusStore(db),
      markers: createMarkerStore(db),
      pushSubscriptions: createPushSubscriptionStore(db),
      lists: createListStore(db),
      listMembers: edges<ListMember>("listMembers"),
      collections: createCollectionStore(db),
      filters: createFilterStore(db),
      conversations: createConversationStore(db),
      jobs: createJobStore(db),
      media: createMediaStore(db),
      kv: createKvStore(db),
      coordination: coordination.coordination,
    };
    putJob = (job) => stores.jobs.put(job);
    const inFlight = new InFlight();
    // A store call made by a write that carries a job waits for that job to be stored, unless
    // the call can store it with its own change (outbox.ts).
    const gateOf =
      (name: string): CallGate =>
      (method) => {
        if (method === "watch" || (name === "jobs" && method === "putAround")) return undefined;
        // A number read at once, no statement (KvStore.version); held rate-limit units likewise.
        if (name === "kv" && method === "version") return undefined;
        if (name === "coordination" && method === "countHeld") return undefined;
        if (method === "put" && (name === "statuses" || Object.hasOwn(EDGE_KINDS, name))) {
          return undefined;
        }
        if (name === "statuses" && method === "putNew") return undefined;
        return outbox.before();
      };
    const trackedStores = Object.fromEntries(
      Object.entries(stores).map(([name, store]) => [name, tracked(store, inFlight, gateOf(name))]),
    ) as typeof stores;
    return {
      ...trackedStores,
      joined: tracked(createJoinedReads(db, stores, edgeMemo, accountCounts), inFlight),
      broadcast,
      version: () => changes.version,
      versionOf: (kinds) => changes.versionOf(kinds),
      dump: () => dumpDatabase(sql),
      close() {
        closing ??= (async () => {
          await inFlight.idle(CLOSE_WAIT_MS);
          // Finished records gathered for removal go now rather than run again after restart.
          await stores.jobs.flushRetired();
          await unlisten().catch(() => {});
          await broadcast.close();
          await coordination.release().catch(() => {});
          await sql.end({ timeout: 5 });
        })();
        return closing;
      },
    };
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
}
