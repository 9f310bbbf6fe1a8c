// Follow an account (Mastodon's FollowService): a locked account gets a follow request that it
// must authorize; anyone else is followed at once. Following again changes the options of the
// follow (or of the pending request) and keeps its id, so lists do not reorder.
// A remote account is always asked: the follow is a request (with the id of the Follow activity
// the federation sends) until the remote server's Accept turns it into a follow, as in Mastodon.

import { isLocal } from "../../domain/account.ts";
import { AppError, notFound, unprocessable } from "../../domain/errors.ts";
import { jsonEqual } from "../../domain/json-equal.ts";
import type { Follow } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { blockedDomains, onBlockedDomain } from "./blocked-domains.ts";
import { requireAccount } from "./target-account.ts";

export interface FollowOptions {
  /** Show the target's boosts in home; unchanged on a re-follow when undefined (default true). */
  reblogs?: boolean | undefined;
  /** Notify when the target posts; unchanged when undefined (default false). */
  notify?: boolean | undefined;
  /** Only these languages; [] or null for all; unchanged when undefined. */
  languages?: readonly string[] | null | undefined;
}

export type FollowOutcome = "following" | "requested";

/** ISO 639-1/639-3 codes, optionally with a region or script (`pt-BR`, `zh-Hant`). */
const LANGUAGE = /^[a-z]{2,3}(?:-[a-z0-9]{2,4})?$/i;

function normalizeLanguages(languages: readonly string[] | null): string[] | null {
  if (languages === null || languages.length === 0) return null;
  if (!languages.every((l) => LANGUAGE.test(l))) {
    throw unprocessable("Validation failed: Languages contains an unsupported language");
  }
  return [...new Set(languages)];
}

function withOptions(edge: Follow, options: FollowOptions): Follow {
  return {
    ...edge,
    showReblogs: options.reblogs ?? edge.showReblogs,
    notify: options.notify ?? edge.notify,
    languages:
      options.languages === undefined ? edge.languages : normalizeLanguages(options.languages),
  };
}

/**
 * Stores the edge with the options asked for, unless it already has them: a client that sends
 * the follow again (as some do on every tap) then writes nothing, and every answer the server
 * keeps until its storage changes stays kept, as in Mastodon (whose save of an unchanged follow
 * writes nothing).
 */
async function putWithOptions(
  store: { put(edge: Follow): Promise<void> },
  edge: Follow,
  options: FollowOptions,
): Promise<void> {
  const next = withOptions(edge, options);
  if (!jsonEqual(next, edge)) await store.put(next);
}

export async function followAccount(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
  options: FollowOptions = {},
): Promise<FollowOutcome> {
  const target = await requireAccount(ctx, targetId);
  // Nobody follows a suspended account (Mastodon's FollowService: not found when unavailable).
  if (target.suspended) throw notFound();
  if (target.id === viewerId) {
    throw new AppError(403, "Following your own account is not allowed");
  }
  const { follows, followRequests, blocks } = ctx.storage;
  const [blockedBy, blocking, existing, pending, domains] = await Promise.all([
    blocks.get(target.id, viewerId),
    blocks.get(viewerId, target.id),
    follows.get(viewerId, target.id),
    followRequests.get(viewerId, target.id),
    blockedDomains(ctx, viewerId),
  ]);
  // A user who blocked the target's server cannot follow anyone new there (Mastodon).
  if (blockedBy || blocking || (!existing && onBlockedDomain(target, domains))) {
    throw new AppError(403, "This action is not allowed");
  }

  if (existing) {
    await putWithOptions(follows, existing, options);
    return "following";
  }
  if (pending) {
    await putWithOptions(followRequests, pending, options);
    return "requested";
  }

  const id = ctx.ids.next();
  const edge = withOptions(
    {
      id,
      accountId: viewerId,
      targetId: target.id,
      createdAt: ctx.clock.now().toISOString(),
      showReblogs: true,
      notify: false,
      languages: null,
      uri: isLocal(target) ? null : `${ctx.settings.publicUrl}/follows/${id}`,
    },
    options,
  );
  // Only a new follow or request is an event; changing the options of one is not.
  return storeNewFollow(ctx, edge, target.locked || !isLocal(target));
}

/**
 * A new edge becomes a follow request or a follow, with its event (local or remote follower),
 * recorded before the edge (ADR 0013): a crash after it still sends the Follow or the Accept.
 */
export async function storeNewFollow(
  ctx: ServiceContext,
  edge: Follow,
  asRequest: boolean,
): Promise<FollowOutcome> {
  if (asRequest) {
    await publishAround(ctx.events, { type: "account.follow_requested", request: edge }, () =>
      ctx.storage.followRequests.put(edge),
    );
    return "requested";
  }
  await publishAround(ctx.events, { type: "account.followed", follow: edge }, () =>
    ctx.storage.follows.put(edge),
  );
  return "following";
}
