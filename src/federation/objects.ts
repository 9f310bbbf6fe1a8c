// Every local status answers over ActivityPub at its id, `/users/{username}/statuses/{id}`:
// a Note, or a Question for a poll. `…/statuses/{id}/activity` answers the activity that
// published it: the Create of a post, or the Announce of a boost (whose own id that is).
//
// One dispatcher per path, registered for the base classes (Object, Activity): Fedify routes a
// path to one class only, and a status may be a Note or a Question. Who may read what follows
// Mastodon: public and unlisted statuses are served to anyone; private and direct ones only to
// a signed request by an actor that may see them (a follower, or a mentioned account), and
// otherwise answer 404 as if they did not exist. A deleted public or unlisted status answers
// 410 with a Tombstone (`goneStatusResponse`, called by the federation's not-found hook, since
// Fedify's object handler only answers 200 or not found).

import type { Federation, RequestContext } from "@fedify/fedify";
import { Activity, Object as ApObject, Tombstone } from "@fedify/vocab";
import { isLocallySuspended } from "../domain/account.ts";
import type { Status } from "../domain/status.ts";
import { toTombstone } from "../serialization/activitypub/to-note.ts";
import type { ServiceContext } from "../services/context.ts";
import { loadStatusViews, type StatusView } from "../views/status-view.ts";
import { deletionIsPublic, visibleToReader } from "../views/visibility.ts";
import { routePath } from "./route-path.ts";
import { signedViewer } from "./signed-viewer.ts";
import { noteOf, postActivitiesOf } from "./status-documents.ts";

export const STATUS_PATH = "/users/{identifier}/statuses/{id}";
export const STATUS_ACTIVITY_PATH = "/users/{identifier}/statuses/{id}/activity";

const ID = /^[0-9]{1,20}$/;

type Values = Record<"identifier" | "id", string>;

/** The status at these path values, if it is a local account's own and not deleted. */
async function ownStatus(ctx: ServiceContext, values: Values): Promise<Status | undefined> {
  if (!ID.test(values.id)) return undefined;
  const account = await ctx.storage.accounts.findByUsername(values.identifier, null);
  // A suspended account's statuses are hidden with it.
  if (!account || account.suspended) return undefined;
  const status = await ctx.storage.statuses.get(values.id);
  if (!status || status.deleted || status.accountId !== account.id || !status.local) {
    return undefined;
  }
  return status;
}

/** The status's view if the requester may read it (see the header), else undefined. */
async function readableView(
  fctx: RequestContext<ServiceContext>,
  status: Status,
): Promise<StatusView | undefined> {
  const ctx = fctx.data;
  const readable = await visibleToReader(
    ctx,
    status,
    async () => (await signedViewer(fctx))?.id ?? null,
  );
  if (!readable) return undefined;
  const [view] = await loadStatusViews(ctx, [status], null);
  return view;
}

/**
 * The view of the post (not a boost: a boost has no object of its own, its id is the Announce
 * at …/activity) at these path values, if the requester may read its Note. The Note's
 * collections (collections/status-collections.ts) answer exactly when the Note does.
 */
export async function readablePost(
  fctx: RequestContext<ServiceContext>,
  values: Values,
): Promise<StatusView | undefined> {
  const status = await ownStatus(fctx.data, values);
  if (!status || status.reblogOfId !== null) return undefined;
  return readableView(fctx, status);
}

export function registerObjects(federation: Federation<ServiceContext>): void {
  federation.setObjectDispatcher(ApObject, STATUS_PATH, async (fctx, values) => {
    const view = await readablePost(fctx, values);
    return view ? noteOf(fctx.data, view) : null;
  });

  federation.setObjectDispatcher(Activity, STATUS_ACTIVITY_PATH, async (fctx, values) => {
    const status = await ownStatus(fctx.data, values);
    if (!status) return null;
    const view = await readableView(fctx, status);
    if (!view) return null;
    const [activity] = await postActivitiesOf(fctx.data, [view]);
    return activity ?? null;
  });
}

const ACTOR_ROUTE = /^\/users\/([^/]+)$/;

/**
 * A local actor whose data was deleted (after its suspension) answers 410 with a Tombstone, as
 * Mastodon's permanently unavailable accounts do, so that peers drop it (they also got its
 * Delete). While the suspension can still be lifted, the actor is served, flagged (actor.ts).
 */
async function goneActorResponse(ctx: ServiceContext, request: Request): Promise<Response | null> {
  const match = ACTOR_ROUTE.exec(routePath(request));
  if (!match) return null;
  let username: string;
  try {
    username = decodeURIComponent(match[1] ?? "");
  } catch {
    return null;
  }
  const account = await ctx.storage.accounts.findByUsername(username, null);
  if (!account?.suspended || isLocallySuspended(account)) return null;
  const body = await new Tombstone({ id: new URL(account.uri) }).toJsonLd();
  return new Response(request.method === "HEAD" ? null : JSON.stringify(body), {
    status: 410,
    headers: { "Content-Type": "application/activity+json", Vary: "Accept" },
  });
}

// A status, or one of its Note's collections (which go with it).
const STATUS_ROUTE = /^\/users\/([^/]+)\/statuses\/([0-9]{1,20})(?:\/(replies|likes|shares))?$/;

/**
 * The 410 a deleted public or unlisted status (and each of its Note's collections) answers
 * with, or null for any other request.
 * Fedify calls its not-found hook for this path only after it has checked that the request
 * asks for ActivityPub JSON, so a browser still gets the web page's own answer.
 */
export async function goneStatusResponse(
  ctx: ServiceContext,
  request: Request,
): Promise<Response | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const actor = await goneActorResponse(ctx, request);
  if (actor) return actor;
  const match = STATUS_ROUTE.exec(routePath(request));
  if (!match) return null;
  let username: string;
  try {
    username = decodeURIComponent(match[1] ?? "");
  } catch {
    return null;
  }
  const account = await ctx.storage.accounts.findByUsername(username, null);
  const status = account ? await ctx.storage.statuses.get(match[2] ?? "") : undefined;
  if (!account || !status?.deleted || status.accountId !== account.id) return null;
  // Private and direct statuses are not revealed to have existed.
  if (!deletionIsPublic(status)) return null;
  if (status.reblogOfId !== null) return null;
  const collection = match[3];
  const tombstone = collection
    ? new Tombstone({ id: new URL(`${status.uri}/${collection}`) })
    : toTombstone(status);
  const body = await tombstone.toJsonLd();
  return new Response(request.method === "HEAD" ? null : JSON.stringify(body), {
    status: 410,
    headers: { "Content-Type": "application/activity+json", Vary: "Accept" },
  });
}
