// Statuses named by a filter (/api/v2/filters/:filter_id/statuses and
// /api/v2/filters/statuses/:id). The status must be one the user can see (else Mastodon's
// "Status must exist", never revealing a status they cannot see); a filter names it once.

import { AppError, unprocessable } from "../../domain/errors.ts";
import type { FilterStatusEntry } from "../../domain/filter.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { ownFilter, ownStatusEntry, saveFilter, withFiltersLock } from "./own-filters.ts";

export async function addFilterStatus(
  ctx: ServiceContext,
  accountId: string,
  filterId: string,
  statusId: string,
): Promise<FilterStatusEntry> {
  await ownFilter(ctx, accountId, filterId);
  try {
    await loadVisibleStatus(ctx, accountId, statusId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) {
      throw unprocessable("Validation failed: Status must exist");
    }
    throw error;
  }
  return withFiltersLock(ctx, accountId, async () => {
    const filter = await ownFilter(ctx, accountId, filterId);
    if (filter.statuses.some((s) => s.statusId === statusId)) {
      throw unprocessable("Validation failed: Status has already been taken");
    }
    const entry: FilterStatusEntry = { id: ctx.ids.next(), statusId };
    await saveFilter(ctx, { ...filter, statuses: [...filter.statuses, entry] });
    return entry;
  });
}

export function removeFilterStatus(
  ctx: ServiceContext,
  accountId: string,
  entryId: string,
): Promise<void> {
  return withFiltersLock(ctx, accountId, async () => {
    const { filter } = await ownStatusEntry(ctx, accountId, entryId);
    await saveFilter(ctx, { ...filter, statuses: filter.statuses.filter((s) => s.id !== entryId) });
  });
}
