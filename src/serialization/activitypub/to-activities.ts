// The activities Wren sends besides Create and Announce of statuses (to-post-activity.ts):
// edits, deletions, likes, follows and their answers, blocks, profile updates, poll votes, and
// the Undo of any of them. Pure: callers pass the records and the URIs of the accounts.
// Shapes follow what Mastodon sends, since that is what every peer is tested against.

import {
  Accept,
  type Activity,
  type Actor,
  Block,
  Create,
  Delete,
  Follow,
  Like,
  Move,
  Note,
  PUBLIC_COLLECTION,
  type Question,
  Reject,
  Tombstone,
  Undo,
  Update,
} from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type {
  Block as BlockEdge,
  Favourite,
  Follow as FollowEdge,
} from "../../domain/relations.ts";
import type { Status } from "../../domain/status.ts";
import {
  acceptActivityId,
  blockActivityId,
  deleteActivityId,
  followActivityId,
  likeActivityId,
  moveActivityId,
  rejectActivityId,
  undoActivityId,
  updateActorActivityId,
  updateStatusActivityId,
  voteActivityId,
  voteNoteId,
} from "./activity-ids.ts";
import type { Addressing } from "./to-note.ts";

/** The addressing of a Note or Question as built by toNote, reused by the activities about it. */
export function addressingOfObject(object: Note | Question): Addressing {
  return { tos: [...object.toIds], ccs: [...object.ccIds] };
}

function instant(iso: string): Temporal.Instant {
  return Temporal.Instant.from(iso);
}

/**
 * The Update of a status: the whole object again. For an edit the object carries `updated`
 * (the edit time), as Mastodon sends it; an update of poll counts must not, since Mastodon
 * records every newer `updated` as an edit in the status's history. `version` makes each
 * update's id distinct.
 */
export function updateStatusActivity(
  object: Note | Question,
  status: Status,
  actorUri: string,
  version: string,
): Update {
  const edited = status.editedAt === null ? null : instant(status.editedAt);
  const withUpdated =
    edited !== null && object.updated === null ? object.clone({ updated: edited }) : object;
  const { tos, ccs } = addressingOfObject(object);
  return new Update({
    id: new URL(updateStatusActivityId(status.uri, version)),
    actor: new URL(actorUri),
    object: withUpdated,
    published: edited,
    tos,
    ccs,
  });
}

/** The Delete of a status: a Tombstone with the status's id, addressed as the status was. */
export function deleteStatusActivity(
  status: Status,
  actorUri: string,
  addressing: Addressing,
): Delete {
  return new Delete({
    id: new URL(deleteActivityId(status.uri)),
    actor: new URL(actorUri),
    object: new Tombstone({ id: new URL(status.uri) }),
    tos: addressing.tos,
    ccs: addressing.ccs,
  });
}

/** The Delete of an actor by itself (a suspended account), to everyone. */
export function deleteActorActivity(actorUri: string): Delete {
  return new Delete({
    id: new URL(`${actorUri}#delete`),
    actor: new URL(actorUri),
    object: new URL(actorUri),
    to: PUBLIC_COLLECTION,
  });
}

/** The Undo of an activity the same actor sent, embedding it (peers match by its id). */
export function undoActivity(inner: Activity, actorUri: string): Undo {
  if (inner.id === null) throw new TypeError("Only an activity with an id can be undone");
  return new Undo({
    id: new URL(undoActivityId(inner.id.href)),
    actor: new URL(actorUri),
    object: inner,
    tos: [...inner.toIds],
    ccs: [...inner.ccIds],
  });
}

export function likeActivity(favourite: Favourite, actorUri: string, statusUri: string): Like {
  return new Like({
    id: new URL(likeActivityId(actorUri, favourite.id)),
    actor: new URL(actorUri),
    object: new URL(statusUri),
  });
}

/**
 * The Follow a local account sends (its id is the follow request's uri, which the peer's
 * Accept or Reject names), or the Follow a peer sent us, re-described inside Accept/Reject.
 */
export function followActivity(
  follow: FollowEdge,
  followerUri: string,
  targetUri: string,
  publicUrl: string,
): Follow {
  return new Follow({
    id: new URL(follow.uri ?? followActivityId(publicUrl, follow.id)),
    actor: new URL(followerUri),
    object: new URL(targetUri),
  });
}

/**
 * The followed account's Accept of a remote follow. The Follow is embedded with its actor and
 * object, so a peer that cannot match the id (Mastodon looks up by actor and object) still
 * finds it. `follow.uri` is the id of the peer's Follow; without it the embedded Follow has none.
 */
export function acceptFollowActivity(
  follow: FollowEdge,
  followerUri: string,
  targetUri: string,
): Accept {
  return new Accept({
    id: new URL(acceptActivityId(targetUri, follow.id)),
    actor: new URL(targetUri),
    object: peerFollow(follow, followerUri, targetUri),
  });
}

/** The followed account's Reject of a remote follow or follow request. */
export function rejectFollowActivity(
  follow: FollowEdge,
  followerUri: string,
  targetUri: string,
): Reject {
  return new Reject({
    id: new URL(rejectActivityId(targetUri, follow.id)),
    actor: new URL(targetUri),
    object: peerFollow(follow, followerUri, targetUri),
  });
}

function peerFollow(follow: FollowEdge, followerUri: string, targetUri: string): Follow {
  return new Follow({
    id: follow.uri === null ? null : new URL(follow.uri),
    actor: new URL(followerUri),
    object: new URL(targetUri),
  });
}

export function blockActivity(block: BlockEdge, actorUri: string, targetUri: string): Block {
  return new Block({
    id: new URL(blockActivityId(actorUri, block.id)),
    actor: new URL(actorUri),
    object: new URL(targetUri),
  });
}

/** The Update of a local actor's profile, public as Mastodon sends it. */
export function updateActorActivity(actor: Actor, version: string): Update {
  if (actor.id === null) throw new TypeError("The actor has no id");
  return new Update({
    id: new URL(updateActorActivityId(actor.id.href, version)),
    actor: actor.id,
    object: actor,
    to: PUBLIC_COLLECTION,
  });
}

/**
 * The account at `actorUri` moved to `targetUri` (as Mastodon sends it: the actor moves
 * itself), addressed to its followers.
 */
export function moveActivity(
  actorUri: string,
  followersUri: string,
  targetUri: string,
  version: string,
): Move {
  return new Move({
    id: new URL(moveActivityId(actorUri, version)),
    actor: new URL(actorUri),
    object: new URL(actorUri),
    target: new URL(targetUri),
    to: new URL(followersUri),
  });
}

export interface VoteInput {
  voterUri: string;
  /** The voter's vote edge (one per voter and poll, whatever the number of choices). */
  voteId: string;
  /** The indexes chosen now and the titles of the poll's options. */
  choices: readonly number[];
  optionTitles: readonly string[];
  /** The poll's status (a Question) and its author. */
  questionUri: string;
  authorUri: string;
}

/**
 * A vote in a remote poll, as Mastodon sends it: one Create of a Note per choice, whose `name`
 * is the option's title, replying to the Question and addressed to its author alone (a vote
 * is not a post: nobody else must see it).
 */
export function voteActivities(vote: VoteInput): Create[] {
  const author = new URL(vote.authorUri);
  return vote.choices.flatMap((choice) => {
    const title = vote.optionTitles[choice];
    if (title === undefined) return [];
    const note = new Note({
      id: new URL(voteNoteId(vote.voterUri, vote.voteId, choice)),
      name: title,
      attribution: new URL(vote.voterUri),
      replyTarget: new URL(vote.questionUri),
      to: author,
    });
    return [
      new Create({
        id: new URL(voteActivityId(vote.voterUri, vote.voteId, choice)),
        actor: new URL(vote.voterUri),
        object: note,
        to: author,
      }),
    ];
  });
}
