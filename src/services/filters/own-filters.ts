// The user's own filters, found by filter, keyword or status-entry id (anyone else's answer
// 404, as if they did not exist), and the lock under which every change to them is made: a
// filter is one record holding its keywords and statuses, so two concurrent changes to it
// must not both read the old record and the later write lose the earlier one.

import { notFound } from "../../domain/errors.ts";
import type { CustomFilter, FilterKeyword, FilterStatusEntry } from "../../domain/filter.ts";
import type { ServiceContext } from "../context.ts";
import { signalStreams } from "../streaming/signal.ts";

export async function ownFilter(
  ctx: ServiceContext,
  accountId: string,
  filterId: string,
): Promise<CustomFilter> {
  const filter = await ctx.storage.filters.get(filterId);
  if (!filter || filter.accountId !== accountId) throw notFound();
  return filter;
}

export async function ownKeyword(
  ctx: ServiceContext,
  accountId: string,
  keywordId: string,
): Promise<{ filter: CustomFilter; keyword: FilterKeyword }> {
  for (const filter of await ctx.storage.filters.listByAccount(accountId)) {
    const keyword = filter.keywords.find((k) => k.id === keywordId);
    if (keyword) return { filter, keyword };
  }
  throw notFound();
}

export async function ownStatusEntry(
  ctx: ServiceContext,
  accountId: string,
  entryId: string,
): Promise<{ filter: CustomFilter; entry: FilterStatusEntry }> {
  for (const filter of await ctx.storage.filters.listByAccount(accountId)) {
    const entry = filter.statuses.find((s) => s.id === entryId);
    if (entry) return { filter, entry };
  }
  throw notFound();
}

/** Runs a read-change-write of the account's filters alone among all processes. */
export function withFiltersLock<T>(
  ctx: ServiceContext,
  accountId: string,
  work: () => Promise<T>,
): Promise<T> {
  return ctx.storage.coordination.withLock(`filters:${accountId}`, work);
}

/** Stores the changed filter, stamped with the time of the change. */
export async function saveFilter(ctx: ServiceContext, filter: CustomFilter): Promise<CustomFilter> {
  const saved = { ...filter, updatedAt: ctx.clock.now().toISOString() };
  await ctx.storage.filters.put(saved);
  await signalStreams(ctx, { kind: "filters_changed", accountId: saved.accountId });
  return saved;
}
