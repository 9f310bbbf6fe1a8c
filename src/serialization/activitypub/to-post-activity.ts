// The activities that put a status in the world: Create (a post, its object embedded) and
// Announce (a boost, pointing at the original by id). Used by the outbox collection and by the
// outbox bridge that delivers them. Pure.

import { Announce, type Create } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { StatusView } from "../../views/status-view.ts";
import { MastodonCreate } from "./mastodon-extensions.ts";
import { addressingOf, type NoteLinks, toNote } from "./to-note.ts";
import type { ApUrls } from "./urls.ts";

/** The id of the Create of a local status (Mastodon's `…/statuses/{id}/activity`). */
export function createActivityIdOf(statusUri: string): URL {
  return new URL(`${statusUri}/activity`);
}

export function createActivityOf(view: StatusView, urls: ApUrls, links: NoteLinks = {}): Create {
  const { status } = view;
  const author = view.account.account;
  const { tos, ccs } = addressingOf(status.visibility, author, view.mentions);
  return new MastodonCreate({
    id: createActivityIdOf(status.uri),
    actor: new URL(author.uri),
    published: Temporal.Instant.from(status.createdAt),
    tos,
    ccs,
    object: toNote(view, urls, links),
  });
}

/**
 * The Announce of a boost: its id is the reblog's uri, its object the original's id. As in
 * Mastodon, the boosted status's author is in cc so their server learns of the boost.
 */
export function announceActivityOf(view: StatusView, _urls: ApUrls): Announce {
  const { status, reblog } = view;
  if (reblog === null) throw new TypeError(`status ${status.id} is not a reblog`);
  const booster = view.account.account;
  const originalAuthor = reblog.account.account;
  const extra = originalAuthor.uri === booster.uri ? [] : [originalAuthor.uri];
  const { tos, ccs } = addressingOf(status.visibility, booster, [], extra);
  return new Announce({
    id: new URL(status.uri),
    actor: new URL(booster.uri),
    published: Temporal.Instant.from(status.createdAt),
    tos,
    ccs,
    object: new URL(reblog.status.uri),
  });
}
