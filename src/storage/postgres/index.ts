// The PostgreSQL storage backend: every port on one database shared by any number of Wren
// processes. Records are rows with the columns their queries need plus the whole record as
// jsonb (ADR 0014); writes that span records run in transactions; other processes' writes reach
// Storage.version() through LISTEN/NOTIFY.

import type { PollVote } from "../../domain/poll.ts";
import type {
  Block,
  Bookmark,
  ConversationMute,
  Edge,
  Favourite,
  Follow,
  FollowRequest,
  Mute,
  Pin,
} from "../../domain/relations.ts";
import type { EdgeStore, Storage } from "../ports.ts";
import { createChanges, listenForChanges } from "./changes.ts";
import { connectPostgres, type PostgresConnection } from "./connect.ts";
import type { PgContext } from "./context.ts";
import { openCoordination } from "./coordination.ts";
import { createEdgeStore } from "./edge-store.ts";
import { createKvStore } from "./kv-store.ts";
import { pendingMigrations } from "./migrate.ts";
import { notBuilt } from "./not-built.ts";

export type { PostgresConnection } from "./connect.ts";

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
  const sql = connectPostgres(connection);
  try {
    const pending = await pendingMigrations(sql);
    if (pending.length > 0) throw new PendingMigrationsError(pending);
    const changes = createChanges();
    const unlisten = await listenForChanges(sql, changes);
    const coordination = await openCoordination(sql);
    const db: PgContext = { sql, changes };
    const edges = <E extends Edge>(kind: string): EdgeStore<E> => createEdgeStore<E>(db, kind);
    let closing: Promise<void> | undefined;
    return {
      accounts: notBuilt("accounts"),
      users: notBuilt("users"),
      apps: notBuilt("apps"),
      tokens: notBuilt("tokens"),
      authorizationCodes: notBuilt("authorizationCodes"),
      statuses: notBuilt("statuses"),
      statusEdits: notBuilt("statusEdits"),
      follows: edges<Follow>("follows"),
      followRequests: edges<FollowRequest>("follow-requests"),
      blocks: edges<Block>("blocks"),
      mutes: edges<Mute>("mutes"),
      favourites: edges<Favourite>("favourites"),
      bookmarks: edges<Bookmark>("bookmarks"),
      pins: edges<Pin>("pins"),
      conversationMutes: edges<ConversationMute>("conversation-mutes"),
      idempotency: notBuilt("idempotency"),
      polls: notBuilt("polls"),
      pollVotes: edges<PollVote>("poll-votes"),
      notifications: notBuilt("notifications"),
      announcements: notBuilt("announcements"),
      announcementDismissals: edges<Edge>("announcement-dismissals"),
      announcementReactions: notBuilt("announcementReactions"),
      customEmojis: notBuilt("customEmojis"),
      reports: notBuilt("reports"),
      markers: notBuilt("markers"),
      conversations: notBuilt("conversations"),
      jobs: notBuilt("jobs"),
      media: notBuilt("media"),
      kv: createKvStore(db),
      coordination: coordination.coordination,
      version: () => changes.version,
      dump: () => notBuilt<{ dump(): AsyncIterable<never> }>("dump").dump(),
      close() {
        closing ??= (async () => {
          await unlisten().catch(() => {});
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
