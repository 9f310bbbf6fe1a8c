// Stores what a remote actor document says about its actor: creates the account record that
// stands for it (DESIGN §1) or refreshes it, keeping its id so every edge and status stays
// attached. An account its server deleted (`suspended`) is never revived by a later document;
// one its server flagged `suspended` is suspended here too, until a document without the flag.

import { type Account, isShutOut } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { rejectsMedia } from "../domain-blocks/domain-blocks.ts";
import { publishAround } from "../events.ts";
import type { RemoteAccountDraft } from "./drafts.ts";
import { storeRemoteEmojis } from "./remote-emojis.ts";

/** The record as the draft describes it, on top of what we had (if anything). */
function merged(
  ctx: ServiceContext,
  draft: RemoteAccountDraft,
  current: Account | undefined,
  now: string,
): Account {
  const published =
    draft.publishedAt !== null && draft.publishedAt <= now ? draft.publishedAt : null;
  return {
    id: current?.id ?? ctx.ids.next(),
    username: draft.username,
    domain: draft.domain,
    displayName: draft.displayName,
    note: "",
    noteHtml: draft.noteHtml,
    locked: draft.locked,
    bot: draft.bot,
    group: draft.group,
    discoverable: draft.discoverable,
    indexable: draft.indexable,
    fields: draft.fields,
    avatar: draft.avatar,
    header: draft.header,
    uri: draft.uri,
    url: draft.url,
    createdAt: current?.createdAt ?? published ?? now,
    updatedAt: now,
    remote: { ...draft.remote, fetchedAt: now },
    // Our moderators' marks are ours, not the document's: a refresh keeps them.
    ...(current?.silencedAt === undefined ? {} : { silencedAt: current.silencedAt }),
    ...(current?.sensitizedAt === undefined ? {} : { sensitizedAt: current.sensitizedAt }),
  };
}

/**
 * Suspended as its server says (Mastodon's remote-origin suspension): since the first document
 * that said so. A document without the flag gives the record without these fields: lifted.
 */
function suspendedByItsServer(
  account: Account,
  current: Account | undefined,
  now: string,
): Account {
  const since = current?.suspendedByItsServer ? current.suspendedAt : undefined;
  return { ...account, suspended: true, suspendedAt: since ?? now, suspendedByItsServer: true };
}

/** What clients would see change (fetchedAt alone is not a change). */
function profileChanged(before: Account, after: Account): boolean {
  const strip = (a: Account) => ({ ...a, updatedAt: "", remote: { ...a.remote, fetchedAt: "" } });
  return JSON.stringify(strip(before)) !== JSON.stringify(strip(after));
}

/**
 * Creates or refreshes the record of a remote actor. Found by its id, else by its
 * `username@domain` (the same server re-publishing an actor under a new id). Returns the stored
 * record; one shut out (deleted by its server, suspended by us) is returned unchanged.
 */
export async function upsertRemoteAccount(
  ctx: ServiceContext,
  draft: RemoteAccountDraft,
): Promise<Account> {
  if (draft.domain.toLowerCase() === ctx.settings.domain.toLowerCase()) {
    throw new Error(`not a remote actor: ${draft.uri}`);
  }
  return ctx.storage.coordination.withLock(`remote-account:${draft.uri}`, async () => {
    const current =
      (await ctx.storage.accounts.findByUri(draft.uri)) ??
      (await ctx.storage.accounts.findByUsername(draft.username, draft.domain));
    if (current && isShutOut(current)) return current;
    const now = ctx.clock.now().toISOString();
    const document = merged(ctx, draft, current, now);
    const merging = draft.suspended ? suspendedByItsServer(document, current, now) : document;
    // A domain block with reject_media: no avatar or header of its accounts is shown.
    const account = (await rejectsMedia(ctx, draft.domain))
      ? { ...merging, avatar: null, header: null }
      : merging;
    const store = async () => {
      await ctx.storage.accounts.put(account);
      await storeRemoteEmojis(ctx, draft.domain, draft.emojis);
    };
    // A change is recorded before the record (ADR 0013): a crash after it still updates what
    // depends on the profile.
    if (current && profileChanged(current, account)) {
      await publishAround(ctx.events, { type: "account.updated", account }, store);
    } else await store();
    return account;
  });
}

/** A remote record is stale after a day: it is fetched again when next used. */
export const REMOTE_ACCOUNT_TTL_MS = 24 * 3600_000;

export function isStale(ctx: ServiceContext, account: Account): boolean {
  if (account.domain === null) return false;
  const fetched = Date.parse(account.remote?.fetchedAt ?? "");
  return Number.isNaN(fetched) || ctx.clock.now().getTime() - fetched > REMOTE_ACCOUNT_TTL_MS;
}
