// The read side of accounts: an account with the counters clients show next to it, built for
// many accounts at once (timelines hydrate dozens per request). Serializers turn these views
// into Mastodon JSON (serialization/mastodon/account.ts) or ActivityPub actors.

import { type Account, movedToOf } from "../domain/account.ts";
import type { CustomEmoji } from "../domain/custom-emoji.ts";
import type { Role, User } from "../domain/user.ts";
import type { ServiceContext } from "../services/context.ts";
import type { AccountCounts } from "../storage/ports.ts";
import { resolveEmojis } from "./custom-emojis.ts";

export interface AccountView {
  account: Account;
  statusesCount: number;
  followersCount: number;
  followingCount: number;
  /** When the newest status was posted (ISO date-time), or null without statuses. */
  lastStatusAt: string | null;
  /** The role of a local account's user (shown as a badge when highlighted); null for remote. */
  role: Role | null;
  /** Custom emojis used in the display name, bio and profile fields. */
  emojis: CustomEmoji[];
  /** The account this one moved to, when it moved and that account is known here. */
  moved?: AccountView;
}

/** The signed-in owner's own account: the view plus the private parts (`source`, `role`). */
export interface CredentialAccountView extends AccountView {
  user: User;
  followRequestsCount: number;
}

async function roles(
  ctx: ServiceContext,
  accounts: readonly Account[],
): Promise<Map<string, Role | null>> {
  const localIds = [...new Set(accounts.filter((a) => a.domain === null).map((a) => a.id))];
  if (localIds.length === 0) return new Map();
  const users = await ctx.storage.users.getMany(localIds);
  return new Map(localIds.map((id) => [id, users.get(id)?.role ?? null]));
}

/** The texts of a profile that may carry `:shortcode:`s (Mastodon's account emoji sources). */
function profileTexts(account: Account): string[] {
  const note = account.domain === null ? account.note : account.noteHtml;
  return [account.displayName, note, ...account.fields.flatMap((f) => [f.name, f.value])];
}

/** The views of the accounts that `accounts` moved to, by the moved account's id (rare). */
async function movedViews(
  ctx: ServiceContext,
  accounts: readonly Account[],
): Promise<Map<string, AccountView>> {
  const out = new Map<string, AccountView>();
  const moved = accounts.flatMap((a) => {
    const to = movedToOf(a);
    return to === null ? [] : [[a.id, to] as const];
  });
  if (moved.length === 0) return out;
  const targets = await Promise.all(moved.map(([, uri]) => ctx.storage.accounts.findByUri(uri)));
  const found = targets.filter((t): t is Account => t !== undefined && !t.suspended);
  const { views } = await buildViews(ctx, found, false, false);
  const byId = new Map(views.map((v) => [v.account.id, v]));
  moved.forEach(([id], i) => {
    const view = targets[i] && byId.get((targets[i] as Account).id);
    if (view) out.set(id, view);
  });
  return out;
}

async function buildViews(
  ctx: ServiceContext,
  accounts: readonly Account[],
  withPending: boolean,
  expandMoved = true,
): Promise<{ views: AccountView[]; pending: Map<string, number> }> {
  const ids = [...new Set(accounts.map((a) => a.id))];
  const [counts, pending, roleById, emojis] = await Promise.all([
    ids.length > 0 ? ctx.storage.joined.accountCounts(ids) : new Map<string, AccountCounts>(),
    withPending ? ctx.storage.followRequests.countToMany(ids) : new Map<string, number>(),
    roles(ctx, accounts),
    resolveEmojis(
      ctx,
      accounts.map((a) => ({ domain: a.domain, texts: profileTexts(a) })),
    ),
  ]);
  const moved = expandMoved ? await movedViews(ctx, accounts) : new Map<string, AccountView>();
  const views = accounts.map((account, i) => {
    const own = counts.get(account.id);
    // A remote account's server knows its real counts (we see only our part of its graph).
    const counters = account.remote;
    return {
      account,
      statusesCount: counters?.statusesCount ?? own?.statuses ?? 0,
      followersCount: counters?.followersCount ?? own?.followers ?? 0,
      followingCount: counters?.followingCount ?? own?.following ?? 0,
      lastStatusAt: own?.lastStatusAt ?? null,
      role: roleById.get(account.id) ?? null,
      emojis: emojis[i] ?? [],
      ...(moved.has(account.id) ? { moved: moved.get(account.id) } : {}),
    };
  });
  return { views, pending };
}

export async function loadAccountViews(
  ctx: ServiceContext,
  accounts: readonly Account[],
): Promise<AccountView[]> {
  return (await buildViews(ctx, accounts, false)).views;
}

export async function loadAccountView(ctx: ServiceContext, account: Account): Promise<AccountView> {
  const [view] = await loadAccountViews(ctx, [account]);
  return view as AccountView;
}

export async function loadCredentialAccountView(
  ctx: ServiceContext,
  account: Account,
  user: User,
): Promise<CredentialAccountView> {
  const { views, pending } = await buildViews(ctx, [account], true);
  const view = views[0] as AccountView;
  return { ...view, user, followRequestsCount: pending.get(account.id) ?? 0 };
}
