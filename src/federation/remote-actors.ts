// Remote actors as local account records (DESIGN §1): looked up by id, actor URL or handle,
// fetched with requests signed by the instance actor (servers with authorized fetch refuse
// unsigned ones), converted (from-actor.ts) and stored (upsert-remote-account.ts). A record
// older than a day is fetched again when used; an unreachable actor keeps its old record.

import type { Context } from "@fedify/fedify";
import { type Actor, isActor } from "@fedify/vocab";
import { getLogger } from "@logtape/logtape";
import { type Account, isLocal, isShutOut } from "../domain/account.ts";
import { actorToDraft } from "../serialization/activitypub/from-actor.ts";
import type { ServiceContext } from "../services/context.ts";
import { isDomainBlocked } from "../services/domain-blocks/domain-blocks.ts";
import type { RemoteAccountDraft } from "../services/remote/drafts.ts";
import { isStale, upsertRemoteAccount } from "../services/remote/upsert-remote-account.ts";
import { isStorageFailure } from "../storage/failure.ts";
import { instanceActorIdentifier } from "./instance-actor.ts";
import { readRemoteFeaturedTags } from "./remote-featured-tags.ts";

export type FederationContext = Context<ServiceContext>;
type DocumentLoader = FederationContext["documentLoader"];

const logger = getLogger(["wren", "federation", "remote"]);

const loaders = new WeakMap<object, Promise<DocumentLoader>>();

/**
 * The document loader that signs with the instance actor; Fedify's unsigned one when the
 * instance actor cannot sign (no keys yet), so lookups still work with open servers.
 */
export function signedLoader(fctx: FederationContext): Promise<DocumentLoader> {
  let loader = loaders.get(fctx);
  if (!loader) {
    const identifier = instanceActorIdentifier(fctx.data.settings);
    loader = fctx.getDocumentLoader({ identifier }).catch((error) => {
      logger.debug("Unsigned lookups: the instance actor cannot sign ({error})", { error });
      // Tried again next time: a context may live long (the inbox gate's lives as the process).
      loaders.delete(fctx);
      return fctx.documentLoader;
    });
    loaders.set(fctx, loader);
  }
  return loader;
}

/**
 * Fetches an ActivityPub object (URL, `acct:` URI or handle) with the signed loader. Fedify
 * refuses a document whose id is on another origin than where it was fetched from.
 */
export async function fetchObject(fctx: FederationContext, identifier: string | URL) {
  try {
    // The context's lookup applies the federation's settings (user agent, private addresses)
    // to the WebFinger step as well.
    return await fctx.lookupObject(identifier, { documentLoader: await signedLoader(fctx) });
  } catch (error) {
    // The document cache is ours: its failure is retried, not taken for an unreachable peer.
    if (isStorageFailure(error)) throw error;
    logger.debug("Lookup of {identifier} failed: {error}", {
      identifier: String(identifier),
      error,
    });
    return null;
  }
}

const HANDLE = /^@?([^@\s/]+)@([^@\s/]+)$/;

/** `user@host`, `@user@host` and `acct:user@host` as a lookup identifier; URLs as URLs. */
export function identifierOf(input: string): string | URL | null {
  const text = input.trim().replace(/^acct:/i, "");
  const handle = HANDLE.exec(text);
  if (handle) return `acct:${handle[1]}@${handle[2]}`;
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === "https:" || url.protocol === "http:" ? url : null;
}

function isOurs(ctx: ServiceContext, url: URL): boolean {
  return url.origin === new URL(ctx.settings.publicUrl).origin;
}

/** `totalItems` of a collection, when its server publishes it (errors: null). */
async function totalItems(loader: DocumentLoader, url: string | null): Promise<number | null> {
  if (url === null) return null;
  try {
    const { document } = await loader(url);
    const total = (document as { totalItems?: unknown } | null)?.totalItems;
    return typeof total === "number" && Number.isSafeInteger(total) && total >= 0 ? total : null;
  } catch {
    return null;
  }
}

/** Counters from the actor's collections (as Mastodon shows remote accounts' counts). */
async function withCounters(
  fctx: FederationContext,
  draft: RemoteAccountDraft,
  previous: Account | undefined,
): Promise<RemoteAccountDraft> {
  const loader = await signedLoader(fctx);
  const sameOrigin = (url: string | null) =>
    url !== null && new URL(url).origin === new URL(draft.uri).origin ? url : null;
  const [statuses, followers, following] = await Promise.all([
    totalItems(loader, sameOrigin(draft.remote.outbox)),
    totalItems(loader, sameOrigin(draft.remote.followers)),
    totalItems(loader, sameOrigin(draft.remote.following)),
  ]);
  const old = previous?.remote;
  return {
    ...draft,
    remote: {
      ...draft.remote,
      statusesCount: statuses ?? old?.statusesCount ?? null,
      followersCount: followers ?? old?.followersCount ?? null,
      followingCount: following ?? old?.followingCount ?? null,
    },
  };
}

/** Stores the actor document; undefined when it is not an acceptable remote actor. */
async function storeActor(
  fctx: FederationContext,
  actor: Actor,
  previous: Account | undefined,
): Promise<Account | undefined> {
  const ctx = fctx.data;
  const draft = await actorToDraft(actor);
  if (!draft || !actor.id || isOurs(ctx, actor.id)) return previous;
  if (await isDomainBlocked(ctx, draft.domain)) return undefined;
  const account = await upsertRemoteAccount(ctx, await withCounters(fctx, draft, previous));
  if (account.suspended) return undefined;
  await readRemoteFeaturedTags(fctx, await signedLoader(fctx), actor, account);
  return account;
}

/** A record kept fresh, unless its server flagged it suspended (refreshed, never returned). */
const shown = (known: Account) => (known.suspended ? undefined : known);

export interface EnsureOptions {
  /** Fetch (or take the given document) even when the stored record is fresh. */
  refresh?: boolean;
  /**
   * The stored record of the actor id given, as the caller just read it (null: none), which
   * spares a second read of it (the inbox reads its sender first).
   */
  stored?: Account | null;
}

/**
 * The stored account of a remote actor (created or refreshed as needed). `actor` is an actor
 * document the caller vouches for (e.g. verified inbox content), an actor id, or a handle.
 * Undefined when unreachable, invalid, local, suspended or of a blocked domain.
 */
export async function ensureRemoteAccount(
  fctx: FederationContext,
  actor: Actor | URL | string,
  options: EnsureOptions = {},
): Promise<Account | undefined> {
  const ctx = fctx.data;
  try {
    let given: Actor | null = null;
    let lookup: string | URL | null;
    if (typeof actor === "string") lookup = identifierOf(actor);
    else if (actor instanceof URL) lookup = actor;
    else {
      given = actor;
      lookup = actor.id;
    }
    if (lookup === null) return undefined;

    if (lookup instanceof URL) {
      if (isOurs(ctx, lookup)) return undefined;
      if (await isDomainBlocked(ctx, lookup.host)) return undefined;
      const known =
        options.stored === undefined
          ? await ctx.storage.accounts.findByUri(lookup.href)
          : (options.stored ?? undefined);
      if (known && (isShutOut(known) || isLocal(known))) return undefined;
      if (known && !options.refresh && !isStale(ctx, known)) return shown(known);
      const fetched = given ?? (await fetchObject(fctx, lookup));
      if (!isActor(fetched)) return known;
      return (await storeActor(fctx, fetched, known)) ?? undefined;
    }

    // A handle: WebFinger names the actor, whose document is then fetched from its id.
    const [, host] = lookup.split("@");
    if (host && (await isDomainBlocked(ctx, host))) return undefined;
    const found = await fetchObject(fctx, lookup);
    if (!isActor(found) || !found.id) return undefined;
    const known = await ctx.storage.accounts.findByUri(found.id.href);
    if (known && (isShutOut(known) || isLocal(known))) return undefined;
    if (known && !options.refresh && !isStale(ctx, known)) return shown(known);
    return storeActor(fctx, found, known);
  } catch (error) {
    // A record that could not be read or stored is not an unreachable actor: an inbox task
    // that drops its activity here would never see it again, one that throws is retried.
    if (isStorageFailure(error)) throw error;
    logger.warn("Could not resolve remote actor {actor}: {error}", {
      actor: String(actor instanceof URL || typeof actor === "string" ? actor : actor.id),
      error,
    });
    return undefined;
  }
}
