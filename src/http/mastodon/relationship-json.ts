// Loads relationships and serialises them for the client API: every graph endpoint answers the
// viewer's Relationship with the account it acted on.

import {
  type RelationshipJson,
  serializeRelationship,
  serializeRelationships,
} from "../../serialization/mastodon/relationship.ts";
import type { ServiceContext } from "../../services/context.ts";
import { loadRelationship, loadRelationships } from "../../services/graph/relationships.ts";

export async function renderRelationship(
  ctx: ServiceContext,
  viewerId: string,
  accountId: string,
): Promise<RelationshipJson> {
  return serializeRelationship(await loadRelationship(ctx, viewerId, accountId));
}

export async function renderRelationships(
  ctx: ServiceContext,
  viewerId: string,
  accountIds: readonly string[],
): Promise<RelationshipJson[]> {
  return serializeRelationships(await loadRelationships(ctx, viewerId, accountIds));
}
