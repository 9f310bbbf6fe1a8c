// Remote posts as local statuses: an object (embedded in an activity, or fetched by id) is
// checked — its id must have the origin of the actor it is attributed to (else it is fetched
// again from its own id, where its server answers for it), nothing of a blocked domain is
// taken — converted (from-note.ts) and stored (services/remote/*). Replies bring their
// missing ancestors within a budget, mentions name the accounts they point at.

import type { Object as APObject } from "@fedify/vocab";
import { getLogger } from "@logtape/logtape";
import { type Account, isLocal } from "../domain/account.ts";
import type { Status } from "../domain/status.ts";
import { isStatusObject, noteToDraft } from "../serialization/activitypub/from-note.ts";
import type { ServiceContext } from "../services/context.ts";
import { isDomainBlocked } from "../services/domain-blocks/domain-blocks.ts";
import { deleteRemoteStatus } from "../services/remote/delete-remote-status.ts";
import type { RemoteStatusDraft } from "../services/remote/drafts.ts";
import { ingestRemoteStatus } from "../services/remote/ingest-remote-status.ts";
import { updateRemoteStatus } from "../services/remote/update-remote-status.ts";
import { isStorageFailure } from "../storage/failure.ts";
import { resolveQuote } from "./quotes/resolve-quote.ts";
import { ensureRemoteAccount, type FederationContext, fetchObject } from "./remote-actors.ts";

const logger = getLogger(["wren", "federation", "remote"]);

/** How far up a thread a reply fetches missing ancestors, and how many fetches in all. */
export const ANCESTOR_DEPTH = 5;
export const FETCH_BUDGET = 10;
/** Unknown remote accounts a post's mentions may fetch. */
const MENTION_FETCHES = 5;

export interface IngestOptions {
  /** The sender already known to be the author (inbox); otherwise the author is looked up. */
  actor?: Account;
  /** How many replies down from the post that started this (ancestors are depth + 1). */
  depth?: number;
  /** Fetches left for this whole ingestion (shared by the ancestors); internal. */
  budget?: { fetches: number };
  /** The status by uri, already asked for (lookAhead): read instead of asking again. */
  ahead?: StatusAhead;
}

/** A read of the status stored under `uri`, started before the work that needs it. */
export interface StatusAhead {
  uri: string;
  status: Promise<Status | undefined>;
}

/**
 * Starts the read of the status stored under `uri` that ingesting it will begin with, so that
 * it runs beside what comes first (the inbox's once-guard, ADR 0066) instead of after it. That
 * read is a look before the work, never the decision: the decision is taken again by the put
 * or under the post's lock (ingestRemoteStatus), so a read a moment older answers the same. A failure is
 * the ingest's to meet (or nobody's, when the activity is skipped).
 */
export function lookAhead(ctx: ServiceContext, uri: URL | null): StatusAhead | undefined {
  if (uri === null || isOurs(ctx, uri)) return undefined;
  const status = ctx.storage.statuses.findByUri(uri.href);
  status.catch(() => {});
  return { uri: uri.href, status };
}

function originOf(id: URL | string): string | null {
  try {
    return new URL(id).origin;
  } catch {
    return null;
  }
}

function isOurs(ctx: ServiceContext, id: URL | string): boolean {
  return originOf(id) === new URL(ctx.settings.publicUrl).origin;
}

/** The author's id: the first `attributedTo` (Lemmy adds its community after the person). */
function authorIdOf(object: APObject): URL | null {
  return object.attributionIds[0] ?? null;
}

function sameOrigin(object: APObject): boolean {
  const author = authorIdOf(object);
  return object.id !== null && author !== null && object.id.origin === author.origin;
}

/** The object under the origin rule: as given, or fetched again from its id; else null. */
async function trustedObject(
  fctx: FederationContext,
  object: APObject,
  budget: { fetches: number },
): Promise<APObject | null> {
  if (sameOrigin(object)) return object;
  if (object.id === null || budget.fetches <= 0) return null;
  budget.fetches--;
  const fetched = await fetchObject(fctx, object.id);
  return fetched && fetched.id?.href === object.id.href && sameOrigin(fetched) ? fetched : null;
}

/** Accounts named by the mentions: local ones, known ones, and a few fetched. */
async function mentionIdsOf(fctx: FederationContext, uris: readonly string[]): Promise<string[]> {
  const ctx = fctx.data;
  const ids: string[] = [];
  let fetches = MENTION_FETCHES;
  for (const uri of uris) {
    const known = await ctx.storage.accounts.findByUri(uri);
    if (known) {
      if (!known.suspended) ids.push(known.id);
      continue;
    }
    if (isOurs(ctx, uri) || fetches <= 0) continue;
    fetches--;
    const account = await ensureRemoteAccount(fctx, new URL(uri));
    if (account) ids.push(account.id);
  }
  return ids;
}

/** The stored parent of a reply, fetched (with its own ancestors) when missing. */
async function parentOf(
  fctx: FederationContext,
  draft: RemoteStatusDraft,
  depth: number,
  budget: { fetches: number },
): Promise<Status | null> {
  const uri = draft.inReplyToUri;
  if (uri === null) return null;
  const known = await fctx.data.storage.statuses.findByUri(uri);
  if (known) return known;
  if (isOurs(fctx.data, uri) || depth >= ANCESTOR_DEPTH || budget.fetches <= 0) return null;
  return (await ingestObject(fctx, new URL(uri), { depth: depth + 1, budget })) ?? null;
}

/** The post a quote names, fetched when missing (one level: a quote of a quote is not chased). */
async function quotedOf(
  fctx: FederationContext,
  uri: string,
  depth: number,
  budget: { fetches: number },
): Promise<Status | undefined> {
  if (isOurs(fctx.data, uri) || depth >= 1 || budget.fetches <= 0) return undefined;
  return ingestObject(fctx, new URL(uri), { depth: depth + 1, budget });
}

/** The author's account for an object, checked against the given actor if any. */
async function authorOf(
  fctx: FederationContext,
  object: APObject,
  actor: Account | undefined,
): Promise<Account | undefined> {
  const authorId = authorIdOf(object);
  if (authorId === null) return undefined;
  if (actor) return actor.uri === authorId.href ? actor : undefined;
  const account = await ensureRemoteAccount(fctx, authorId);
  return account && !isLocal(account) ? account : undefined;
}

async function ingest(
  fctx: FederationContext,
  input: APObject | URL,
  options: IngestOptions,
): Promise<Status | undefined> {
  const ctx = fctx.data;
  const budget = options.budget ?? { fetches: FETCH_BUDGET };
  const id = input instanceof URL ? input : input.id;
  if (id === null || isOurs(ctx, id)) return undefined;
  const stored = await (options.ahead?.uri === id.href
    ? options.ahead.status
    : ctx.storage.statuses.findByUri(id.href));
  if (stored) return stored.deleted ? undefined : stored;
  if (await isDomainBlocked(ctx, id.host)) return undefined;

  let object: APObject | null;
  if (input instanceof URL) {
    if (budget.fetches <= 0) return undefined;
    budget.fetches--;
    object = await fetchObject(fctx, input);
    // A URL that was a page of a post we already hold (url ≠ id).
    if (object?.id && object.id.href !== id.href) {
      const again = await ctx.storage.statuses.findByUri(object.id.href);
      if (again) return again.deleted ? undefined : again;
    }
    if (object && !sameOrigin(object)) object = null;
  } else {
    object = await trustedObject(fctx, input, budget);
  }
  if (!object || !isStatusObject(object) || object.id === null) return undefined;
  if (isOurs(ctx, object.id) || (await isDomainBlocked(ctx, object.id.host))) return undefined;

  const author = await authorOf(fctx, object, options.actor);
  if (!author || author.suspended) return undefined;
  const draft = await noteToDraft(object, {
    followersUri: author.remote?.followers ?? null,
    authorUri: author.uri,
  });
  if (!draft) return undefined;
  const depth = options.depth ?? 0;
  const [inReplyTo, mentionIds, quote] = await Promise.all([
    parentOf(fctx, draft, depth, budget),
    mentionIdsOf(fctx, draft.mentionUris),
    resolveQuote(fctx, draft, author.id, undefined, (uri) => quotedOf(fctx, uri, depth, budget)),
  ]);
  return ingestRemoteStatus(ctx, { account: author, draft, inReplyTo, mentionIds, quote });
}

/**
 * Stores a remote post (Create, a fetched URL, an ancestor) once per id and returns it;
 * undefined when it is refused (origin, blocked domain, unknown author) or unreachable.
 */
export async function ingestObject(
  fctx: FederationContext,
  object: APObject | URL,
  options: IngestOptions = {},
): Promise<Status | undefined> {
  try {
    return await ingest(fctx, object, options);
  } catch (error) {
    // Storage failures reach the caller (an inbox task is then retried); the rest is the peer's.
    if (isStorageFailure(error)) throw error;
    const id = object instanceof URL ? object.href : object.id?.href;
    logger.warn("Could not ingest remote object {id}: {error}", { id, error });
    return undefined;
  }
}

/** Applies an Update of a post by its author; undefined when refused or unknown. */
export async function updateObject(
  fctx: FederationContext,
  object: APObject,
  actor: Account,
): Promise<Status | undefined> {
  const ctx = fctx.data;
  try {
    if (object.id === null || !isStatusObject(object)) return undefined;
    const authorId = authorIdOf(object);
    if (authorId !== null && authorId.href !== actor.uri) return undefined;
    if (object.id.origin !== originOf(actor.uri)) return undefined;
    const status = await ctx.storage.statuses.findByUri(object.id.href);
    // Mastodon ignores updates of posts it never stored.
    if (!status || status.local || status.deleted || status.accountId !== actor.id) {
      return undefined;
    }
    const draft = await noteToDraft(object, {
      followersUri: actor.remote?.followers ?? null,
      authorUri: actor.uri,
    });
    if (!draft) return undefined;
    const [mentionIds, quote] = await Promise.all([
      mentionIdsOf(fctx, draft.mentionUris),
      resolveQuote(fctx, draft, actor.id, status, (uri) => quotedOf(fctx, uri, 0, { fetches: 1 })),
    ]);
    return await updateRemoteStatus(ctx, { status, draft, mentionIds, quote });
  } catch (error) {
    if (isStorageFailure(error)) throw error;
    logger.warn("Could not update remote object {id}: {error}", { id: object.id?.href, error });
    return undefined;
  }
}

/** Deletes a post on its author's word; anything else is ignored. */
export async function deleteObject(
  fctx: FederationContext,
  objectId: URL,
  actor: Account,
): Promise<void> {
  const ctx = fctx.data;
  const status = await ctx.storage.statuses.findByUri(objectId.href);
  if (!status || status.local || status.deleted || status.accountId !== actor.id) return;
  if (status.reblogOfId !== null) return;
  await deleteRemoteStatus(ctx, status);
}
