// Filters v2 (POST/PUT/DELETE /api/v2/filters): create a filter with its first keywords, change
// its title, contexts, action, expiry and keywords (`keywords_attributes`: an entry with an id
// changes or, with `_destroy`, removes that keyword of this filter, 404 when the filter has no
// such keyword; one without an id adds a keyword; an entry with nothing in it is ignored), and
// delete it with its keywords and statuses.

import { notFound } from "../../domain/errors.ts";
import type { CustomFilter, FilterKeyword } from "../../domain/filter.ts";
import type { ServiceContext } from "../context.ts";
import { signalStreams } from "../streaming/signal.ts";
import { checkAction, checkContext, checkKeyword, checkTitle, expiryFrom } from "./filter-rules.ts";
import { ownFilter, saveFilter, withFiltersLock } from "./own-filters.ts";

export interface KeywordAttributes {
  id?: string;
  keyword?: string;
  wholeWord?: boolean;
  destroy?: boolean;
}

export interface FilterChanges {
  title?: string;
  context?: readonly string[];
  action?: string;
  /** Seconds from now; null: never expires. Absent: unchanged. */
  expiresIn?: number | null;
  keywords?: readonly KeywordAttributes[];
}

/** Mastodon's `reject_if: :all_blank`: an entry giving nothing is not a keyword. */
function isBlank(k: KeywordAttributes): boolean {
  return k.id === undefined && (k.keyword ?? "") === "" && k.wholeWord === undefined;
}

function applyKeywords(
  ctx: ServiceContext,
  existing: readonly FilterKeyword[],
  changes: readonly KeywordAttributes[],
): FilterKeyword[] {
  const keywords = [...existing];
  for (const change of changes) {
    if (isBlank(change)) continue;
    if (change.id !== undefined) {
      const at = keywords.findIndex((k) => k.id === change.id);
      if (at < 0) throw notFound();
      if (change.destroy) {
        keywords.splice(at, 1);
        continue;
      }
      const before = keywords[at] as FilterKeyword;
      keywords[at] = {
        id: before.id,
        keyword: change.keyword === undefined ? before.keyword : checkKeyword(change.keyword),
        wholeWord: change.wholeWord ?? before.wholeWord,
      };
      continue;
    }
    if (change.destroy) continue;
    keywords.push({
      id: ctx.ids.next(),
      keyword: checkKeyword(change.keyword ?? ""),
      // Mastodon's column default: whole words unless the client says otherwise.
      wholeWord: change.wholeWord ?? true,
    });
  }
  return keywords;
}

export async function createFilter(
  ctx: ServiceContext,
  accountId: string,
  input: FilterChanges,
): Promise<CustomFilter> {
  const now = ctx.clock.now();
  const filter: CustomFilter = {
    id: ctx.ids.next(),
    accountId,
    title: checkTitle(input.title ?? ""),
    context: checkContext(input.context ?? []),
    action: checkAction(input.action ?? "warn"),
    expiresAt: expiryFrom(now, input.expiresIn ?? null),
    keywords: applyKeywords(ctx, [], input.keywords ?? []),
    statuses: [],
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await ctx.storage.filters.put(filter);
  await signalStreams(ctx, { kind: "filters_changed", accountId });
  return filter;
}

export function updateFilter(
  ctx: ServiceContext,
  accountId: string,
  filterId: string,
  changes: FilterChanges,
): Promise<CustomFilter> {
  return withFiltersLock(ctx, accountId, async () => {
    const filter = await ownFilter(ctx, accountId, filterId);
    return saveFilter(ctx, {
      ...filter,
      title: changes.title === undefined ? filter.title : checkTitle(changes.title),
      context: changes.context === undefined ? filter.context : checkContext(changes.context),
      action: changes.action === undefined ? filter.action : checkAction(changes.action),
      expiresAt:
        changes.expiresIn === undefined
          ? filter.expiresAt
          : expiryFrom(ctx.clock.now(), changes.expiresIn),
      keywords: applyKeywords(ctx, filter.keywords, changes.keywords ?? []),
    });
  });
}

export function deleteFilter(
  ctx: ServiceContext,
  accountId: string,
  filterId: string,
): Promise<void> {
  return withFiltersLock(ctx, accountId, async () => {
    await ownFilter(ctx, accountId, filterId);
    await ctx.storage.filters.delete(filterId);
    await signalStreams(ctx, { kind: "filters_changed", accountId });
  });
}
