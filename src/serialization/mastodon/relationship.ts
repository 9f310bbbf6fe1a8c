// RelationshipView → Mastodon's Relationship entity, with every field current Mastodon sends.
// Boost, notification and language options come from the follow, or from the pending request
// while it waits, as Mastodon reports them.

import type { RelationshipView } from "../../services/graph/relationships.ts";

export interface RelationshipJson {
  id: string;
  following: boolean;
  showing_reblogs: boolean;
  notifying: boolean;
  languages: string[] | null;
  followed_by: boolean;
  blocking: boolean;
  blocked_by: boolean;
  muting: boolean;
  muting_notifications: boolean;
  muting_expires_at: string | null;
  requested: boolean;
  requested_by: boolean;
  domain_blocking: boolean;
  endorsed: boolean;
  note: string;
}

export function serializeRelationship(view: RelationshipView): RelationshipJson {
  const options = view.follow ?? view.followRequest;
  return {
    id: view.accountId,
    following: view.follow !== undefined,
    showing_reblogs: options?.showReblogs ?? false,
    notifying: options?.notify ?? false,
    languages: options?.languages ? [...options.languages] : null,
    followed_by: view.followedBy,
    blocking: view.blocking,
    blocked_by: view.blockedBy,
    muting: view.mute !== undefined,
    muting_notifications: view.mute?.hideNotifications ?? false,
    muting_expires_at: view.mute?.expiresAt ?? null,
    requested: view.followRequest !== undefined,
    requested_by: view.requestedBy,
    domain_blocking: view.domainBlocking,
    endorsed: view.endorsed,
    note: view.note,
  };
}

export function serializeRelationships(views: readonly RelationshipView[]): RelationshipJson[] {
  return views.map(serializeRelationship);
}
