// Grouped notifications (GET /api/v2/notifications and friends), as Mastodon 4.3 builds them:
// a page holds up to `limit` groups, each represented by its newest notification in the walked
// range; a group reports how many notifications it has up to the page's newest one, its most
// recent senders, and the ids and time of its members within the page.

import type { Account } from "../../domain/account.ts";
import { notFound } from "../../domain/errors.ts";
import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { Status } from "../../domain/status.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { GROUPABLE_TYPES } from "./group-key.ts";
import { membersOfGroup, membersOfGroups } from "./group-members.ts";
import { keepShown, type NotificationQuery, type ShownNotification, storeFilter } from "./shown.ts";
import { lastReadId } from "./unread-count.ts";
import { effectiveGroupKey, type WalkBounds, walkNotifications } from "./walk.ts";

/** Mastodon's NotificationGroup::SAMPLE_ACCOUNTS_SIZE. */
const SAMPLE_ACCOUNTS = 8;

export interface NotificationGroup {
  groupKey: string;
  type: NotificationType;
  notificationsCount: number;
  mostRecentNotificationId: string;
  /** The most recent distinct senders, newest first. */
  sampleAccounts: Account[];
  status: Status | null;
  /** The group's members within the page: oldest id, newest id, newest time. */
  pageMinId: string;
  pageMaxId: string;
  latestPageNotificationAt: string;
}

export interface GroupedPage {
  groups: NotificationGroup[];
  /** Ids of the newest and oldest representatives, for the Link header. */
  newestId: string | undefined;
  oldestId: string | undefined;
}

/** Which types are grouped for this client: those it allows (all groupable when absent). */
export function groupedTypesFor(requested: readonly string[] | undefined): NotificationType[] {
  if (!requested || requested.length === 0) return [...GROUPABLE_TYPES];
  return GROUPABLE_TYPES.filter((t) => requested.includes(t));
}

function buildGroup(
  key: string,
  shown: ShownNotification[],
  range: { min: bigint; max: bigint | null },
): NotificationGroup | undefined {
  const newest = shown[0];
  if (!newest) return undefined;
  const senders = new Map<string, Account>();
  for (const { account } of shown) {
    if (senders.size >= SAMPLE_ACCOUNTS) break;
    if (!senders.has(account.id)) senders.set(account.id, account);
  }
  const inPage = shown.filter(({ notification: n }) => {
    const id = BigInt(n.id);
    return id >= range.min && (range.max === null || id <= range.max);
  });
  const pageNewest = (inPage[0] ?? newest).notification;
  const pageOldest = (inPage.at(-1) ?? newest).notification;
  return {
    groupKey: key,
    type: newest.notification.type,
    notificationsCount: shown.length,
    mostRecentNotificationId: newest.notification.id,
    sampleAccounts: [...senders.values()],
    status: newest.status,
    pageMinId: pageOldest.id,
    pageMaxId: pageNewest.id,
    latestPageNotificationAt: pageNewest.createdAt,
  };
}

/** One representative per group, in walk order, at most `limit` groups. */
async function representatives(
  ctx: ServiceContext,
  recipientId: string,
  bounds: WalkBounds,
  query: NotificationQuery,
  groupedTypes: readonly NotificationType[],
  limit: number,
): Promise<{ key: string; notification: Notification }[]> {
  const reps: { key: string; notification: Notification }[] = [];
  const seen = new Set<string>();
  const walk = walkNotifications(ctx, recipientId, bounds, storeFilter(query));
  let pending: Notification[] = [];
  const flush = async (): Promise<boolean> => {
    for (const { notification } of await keepShown(ctx, recipientId, pending)) {
      const key = effectiveGroupKey(notification, groupedTypes);
      if (seen.has(key)) continue;
      if (reps.length >= limit) return true;
      seen.add(key);
      reps.push({ key, notification });
    }
    pending = [];
    return false;
  };
  for await (const notification of walk) {
    pending.push(notification);
    if (pending.length >= 50 && (await flush())) return reps;
  }
  await flush();
  return reps;
}

export async function listNotificationGroups(
  ctx: ServiceContext,
  recipientId: string,
  page: IdPage,
  query: NotificationQuery,
  groupedTypes: readonly NotificationType[],
): Promise<GroupedPage> {
  const empty = { groups: [], newestId: undefined, oldestId: undefined };
  if (query.types.length === 0) return empty;
  const upward = page.minId !== undefined;
  const bounds: WalkBounds = upward
    ? { direction: "up", minId: page.minId }
    : { direction: "down", maxId: page.maxId, sinceId: page.sinceId };
  const found = await representatives(ctx, recipientId, bounds, query, groupedTypes, page.limit);
  // Shown newest first either way.
  const reps = upward ? found.reverse() : found;
  const first = reps[0];
  const last = reps.at(-1);
  if (!first || !last) return empty;

  // The page covers the representatives' span; a short page (the end of the list) reaches to
  // the bound it was asked from.
  const complete = reps.length >= page.limit;
  let min = BigInt(last.notification.id);
  let max: bigint | null = BigInt(first.notification.id);
  if (!complete && upward) max = page.maxId === undefined ? null : BigInt(page.maxId) - 1n;
  if (!complete && !upward) min = page.sinceId === undefined ? 0n : BigInt(page.sinceId) + 1n;

  const upTo = max === null ? undefined : max.toString();
  const members = await membersOfGroups(
    ctx,
    recipientId,
    reps.map((r) => r.key),
    upTo,
  );
  // One batched look-up for every member of every group on the page.
  const shownById = new Map(
    (await keepShown(ctx, recipientId, [...members.values()].flat())).map((s) => [
      s.notification.id,
      s,
    ]),
  );
  const groups: NotificationGroup[] = [];
  for (const rep of reps) {
    const shown = (members.get(rep.key) ?? []).flatMap((n) => shownById.get(n.id) ?? []);
    const group = buildGroup(rep.key, shown, { min, max });
    if (group) groups.push(group);
  }
  return { groups, newestId: first.notification.id, oldestId: last.notification.id };
}

/** GET /api/v2/notifications/:group_key: the whole group. */
export async function getNotificationGroup(
  ctx: ServiceContext,
  recipientId: string,
  key: string,
): Promise<NotificationGroup> {
  const shown = await keepShown(ctx, recipientId, await membersOfGroup(ctx, recipientId, key));
  const group = buildGroup(key, shown, { min: 0n, max: null });
  if (!group) throw notFound();
  return group;
}

/** Everyone in the group, newest first (GET /api/v2/notifications/:group_key/accounts). */
export async function notificationGroupAccounts(
  ctx: ServiceContext,
  recipientId: string,
  key: string,
): Promise<Account[]> {
  const shown = await keepShown(ctx, recipientId, await membersOfGroup(ctx, recipientId, key));
  if (shown.length === 0) throw notFound();
  const accounts = new Map<string, Account>();
  for (const { account } of shown) if (!accounts.has(account.id)) accounts.set(account.id, account);
  return [...accounts.values()];
}

/** Removes every notification of the group; an unknown key removes nothing. */
export async function dismissNotificationGroup(
  ctx: ServiceContext,
  recipientId: string,
  key: string,
): Promise<void> {
  for (const n of await membersOfGroup(ctx, recipientId, key)) {
    await ctx.storage.notifications.delete(n.id);
  }
}

/** Unread groups (notifications past the read marker), capped at `limit`. */
export async function countUnreadGroups(
  ctx: ServiceContext,
  recipientId: string,
  query: NotificationQuery,
  groupedTypes: readonly NotificationType[],
  limit: number,
): Promise<number> {
  if (query.types.length === 0) return 0;
  const sinceId = await lastReadId(ctx, recipientId);
  const keys = new Set<string>();
  const bounds: WalkBounds = { direction: "down", sinceId };
  for await (const n of walkNotifications(ctx, recipientId, bounds, storeFilter(query))) {
    keys.add(effectiveGroupKey(n, groupedTypes));
    if (keys.size >= limit) break;
  }
  return keys.size;
}
