// The port through which the archive gets its ActivityPub documents: the federation builds them
// with the same serializers as the actor and outbox it serves (src/wiring/federation.ts attaches it), so services
// never import serialization or Fedify.

import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";

export type JsonObject = Record<string, unknown>;

export interface ArchiveDocuments {
  /** The actor document of a local account (compact JSON-LD, with its @context). */
  actor(account: Account): Promise<JsonObject>;
  /**
   * The activities that published `statuses` (the owner's own): Create for a post, Announce for
   * a boost; compact JSON-LD each, in order (a status that cannot be shown is left out).
   */
  activities(owner: Account, statuses: readonly Status[]): Promise<JsonObject[]>;
}
