// A filter's keywords one by one (/api/v2/filters/:filter_id/keywords and
// /api/v2/filters/keywords/:id): add, change, remove. Only the owner's keywords are found.

import type { FilterKeyword } from "../../domain/filter.ts";
import type { ServiceContext } from "../context.ts";
import { checkKeyword } from "./filter-rules.ts";
import { ownFilter, ownKeyword, saveFilter, withFiltersLock } from "./own-filters.ts";

export function addKeyword(
  ctx: ServiceContext,
  accountId: string,
  filterId: string,
  input: { keyword: string; wholeWord?: boolean },
): Promise<FilterKeyword> {
  return withFiltersLock(ctx, accountId, async () => {
    const filter = await ownFilter(ctx, accountId, filterId);
    const keyword: FilterKeyword = {
      id: ctx.ids.next(),
      keyword: checkKeyword(input.keyword),
      wholeWord: input.wholeWord ?? true,
    };
    await saveFilter(ctx, { ...filter, keywords: [...filter.keywords, keyword] });
    return keyword;
  });
}

export function updateKeyword(
  ctx: ServiceContext,
  accountId: string,
  keywordId: string,
  input: { keyword?: string; wholeWord?: boolean },
): Promise<FilterKeyword> {
  return withFiltersLock(ctx, accountId, async () => {
    const { filter, keyword } = await ownKeyword(ctx, accountId, keywordId);
    const changed: FilterKeyword = {
      id: keyword.id,
      keyword: input.keyword === undefined ? keyword.keyword : checkKeyword(input.keyword),
      wholeWord: input.wholeWord ?? keyword.wholeWord,
    };
    await saveFilter(ctx, {
      ...filter,
      keywords: filter.keywords.map((k) => (k.id === keywordId ? changed : k)),
    });
    return changed;
  });
}

export function removeKeyword(
  ctx: ServiceContext,
  accountId: string,
  keywordId: string,
): Promise<void> {
  return withFiltersLock(ctx, accountId, async () => {
    const { filter } = await ownKeyword(ctx, accountId, keywordId);
    await saveFilter(ctx, {
      ...filter,
      keywords: filter.keywords.filter((k) => k.id !== keywordId),
    });
  });
}
