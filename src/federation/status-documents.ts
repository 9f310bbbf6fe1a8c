// The ActivityPub documents of local statuses, with the links a StatusView does not carry (the
// id of the status replied to, the first page of its replies), looked up once per batch. Used by the object dispatchers, the
// outbox collection and the outbox bridge, so a Note reads the same wherever a peer meets it.

import type { Announce, Create, Note, Question } from "@fedify/vocab";
import type { Status } from "../domain/status.ts";
import type { NoteLinks } from "../serialization/activitypub/to-note.ts";
import { toNote } from "../serialization/activitypub/to-note.ts";
import {
  announceActivityOf,
  createActivityOf,
} from "../serialization/activitypub/to-post-activity.ts";
import type { ServiceContext } from "../services/context.ts";
import type { StatusView } from "../views/status-view.ts";
import { firstRepliesPage } from "./collections/replies-page.ts";
import { apUrls } from "./urls.ts";

/** NoteLinks of each status, keyed by status id. */
export async function noteLinksOf(
  ctx: ServiceContext,
  statuses: readonly Status[],
): Promise<Map<string, NoteLinks>> {
  const parentIds = [...new Set(statuses.flatMap((s) => (s.inReplyToId ? [s.inReplyToId] : [])))];
  const parents = parentIds.length > 0 ? await ctx.storage.statuses.getMany(parentIds) : new Map();
  const replies = await Promise.all(statuses.map((status) => firstRepliesPage(ctx, status)));
  const out = new Map<string, NoteLinks>();
  statuses.forEach((status, i) => {
    // A deleted parent keeps its uri: the reply still answers it (peers know the Tombstone).
    const parent = status.inReplyToId ? parents.get(status.inReplyToId) : undefined;
    out.set(status.id, { inReplyTo: parent?.uri ?? null, replies: replies[i] });
  });
  return out;
}

/** The Note (or Question) of one status. */
export async function noteOf(ctx: ServiceContext, view: StatusView): Promise<Note | Question> {
  const links = await noteLinksOf(ctx, [view.status]);
  return toNote(view, apUrls(ctx), links.get(view.status.id));
}

/**
 * The activity that published each status: Announce for a reblog, Create for anything else.
 * In the order of `views`; a status whose stored ids do not parse as URLs (a broken remote
 * record behind a boost) is left out rather than failing the whole page.
 */
export async function postActivitiesOf(
  ctx: ServiceContext,
  views: readonly StatusView[],
): Promise<(Create | Announce)[]> {
  const urls = apUrls(ctx);
  const links = await noteLinksOf(
    ctx,
    views.filter((v) => v.reblog === null).map((v) => v.status),
  );
  return views.flatMap((view) => {
    try {
      return [
        view.reblog !== null
          ? announceActivityOf(view, urls)
          : createActivityOf(view, urls, links.get(view.status.id)),
      ];
    } catch (error) {
      if (error instanceof TypeError) return [];
      throw error;
    }
  });
}
