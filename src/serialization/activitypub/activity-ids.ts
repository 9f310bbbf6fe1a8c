// The ids of the activities Wren sends. Peers deduplicate by activity id and match an Undo to
// what it undoes by id, so each id must be stable for the same act and distinct between acts.
// They follow Mastodon's conventions (fragments of the actor's or the object's URI), except
// where ids are fixed elsewhere: a status's Create is `${status.uri}/activity`
// (to-post-activity.ts), a boost's Announce is the boost's own uri, a Follow is the follow
// request's uri.

/** An Update of a status (an edit, or new poll counts); `version` tells the updates apart. */
export function updateStatusActivityId(statusUri: string, version: string): string {
  return `${statusUri}#updates/${version}`;
}

export function deleteActivityId(statusUri: string): string {
  return `${statusUri}#delete`;
}

/** An Update of an actor (profile change); `version` tells the updates apart. */
export function updateActorActivityId(actorUri: string, version: string): string {
  return `${actorUri}#updates/${version}`;
}

/** A Move of an account to another; `version` tells moves apart (one may move again). */
export function moveActivityId(actorUri: string, version: string): string {
  return `${actorUri}#moves/${version}`;
}

export function likeActivityId(actorUri: string, favouriteId: string): string {
  return `${actorUri}#likes/${favouriteId}`;
}

export function blockActivityId(actorUri: string, blockId: string): string {
  return `${actorUri}#blocks/${blockId}`;
}

/** The Accept of a follow, by the followed account (`followId`: our follow edge's id). */
export function acceptActivityId(actorUri: string, followId: string): string {
  return `${actorUri}#accepts/follows/${followId}`;
}

/** The Reject of a follow or follow request, by the followed account. */
export function rejectActivityId(actorUri: string, followId: string): string {
  return `${actorUri}#rejects/follows/${followId}`;
}

/** A follow we send has the id of its follow request (`${publicUrl}/follows/${id}`). */
export function followActivityId(publicUrl: string, requestId: string): string {
  return `${publicUrl}/follows/${requestId}`;
}

/**
 * The Undo of an activity: within the same document as the undone one, so it stays under its
 * actor's origin. `…#likes/5` → `…#likes/5/undo` (Mastodon's form); `…/follows/5` → `…#undo`.
 */
export function undoActivityId(innerId: string): string {
  return innerId.includes("#") ? `${innerId}/undo` : `${innerId}#undo`;
}

/** The Note carrying one choice of a vote in a remote poll (Mastodon: `#votes/<id>`). */
export function voteNoteId(voterUri: string, voteId: string, choice: number): string {
  return `${voterUri}#votes/${voteId}/${choice}`;
}

export function voteActivityId(voterUri: string, voteId: string, choice: number): string {
  return `${voteNoteId(voterUri, voteId, choice)}/activity`;
}

/** A report forwarded to another server, sent by the instance actor. */
export function flagActivityId(instanceActorUri: string, reportId: string): string {
  return `${instanceActorUri}#reports/${reportId}`;
}
