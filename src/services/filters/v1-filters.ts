// Filters v1 (/api/v1/filters), the compatibility view Mastodon keeps over v2 records: each v1
// filter is one keyword of a filter, shown with its filter's contexts, expiry and action
// (`irreversible` is `hide`). Creating one makes a filter titled by the phrase holding that one
// keyword; deleting one removes only the keyword. Changing the phrase or whole_word changes the
// keyword; changing contexts, irreversible or the expiry changes the whole filter, which is
// refused (422) when the filter holds other keywords too, as Mastodon refuses it.

import { unprocessable } from "../../domain/errors.ts";
import type { CustomFilter, FilterKeyword } from "../../domain/filter.ts";
import type { ServiceContext } from "../context.ts";
import { checkContext, expiryFrom } from "./filter-rules.ts";
import { createFilter } from "./filters.ts";
import { ownKeyword, saveFilter, withFiltersLock } from "./own-filters.ts";

/** A keyword with the filter it belongs to: one v1 filter. */
export interface V1Filter {
  filter: CustomFilter;
  keyword: FilterKeyword;
}

export interface V1FilterInput {
  phrase?: string;
  context?: readonly string[];
  irreversible?: boolean;
  wholeWord?: boolean;
  /** Seconds from now; null: never. Absent: unchanged (on update). */
  expiresIn?: number | null;
}

export async function listV1Filters(ctx: ServiceContext, accountId: string): Promise<V1Filter[]> {
  const filters = await ctx.storage.filters.listByAccount(accountId);
  return filters.flatMap((filter) => filter.keywords.map((keyword) => ({ filter, keyword })));
}

export function getV1Filter(
  ctx: ServiceContext,
  accountId: string,
  keywordId: string,
): Promise<V1Filter> {
  return ownKeyword(ctx, accountId, keywordId);
}

export async function createV1Filter(
  ctx: ServiceContext,
  accountId: string,
  input: V1FilterInput,
): Promise<V1Filter> {
  const phrase = input.phrase ?? "";
  if (phrase.trim() === "") throw unprocessable("Validation failed: Phrase can't be blank");
  const filter = await createFilter(ctx, accountId, {
    title: phrase,
    context: input.context ?? [],
    action: input.irreversible ? "hide" : "warn",
    expiresIn: input.expiresIn ?? null,
    keywords: [{ keyword: phrase, wholeWord: input.wholeWord }],
  });
  return { filter, keyword: filter.keywords[0] as FilterKeyword };
}

function sameContexts(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((c) => b.includes(c));
}

export function updateV1Filter(
  ctx: ServiceContext,
  accountId: string,
  keywordId: string,
  input: V1FilterInput,
): Promise<V1Filter> {
  return withFiltersLock(ctx, accountId, async () => {
    const { filter, keyword } = await ownKeyword(ctx, accountId, keywordId);
    if (input.phrase !== undefined && input.phrase.trim() === "") {
      throw unprocessable("Validation failed: Phrase can't be blank");
    }
    const context = input.context === undefined ? filter.context : checkContext(input.context);
    const action =
      input.irreversible === undefined ? filter.action : input.irreversible ? "hide" : "warn";
    const expiresAt =
      input.expiresIn === undefined
        ? filter.expiresAt
        : expiryFrom(ctx.clock.now(), input.expiresIn);
    const filterChanged =
      !sameContexts(context, filter.context) ||
      action !== filter.action ||
      expiresAt !== filter.expiresAt;
    if (filterChanged && filter.keywords.length > 1) {
      throw unprocessable(
        "Validation failed: This filter has several keywords; change its contexts, action or expiry with the v2 API",
      );
    }
    const changed: FilterKeyword = {
      id: keyword.id,
      keyword: input.phrase ?? keyword.keyword,
      wholeWord: input.wholeWord ?? keyword.wholeWord,
    };
    const saved = await saveFilter(ctx, {
      ...filter,
      // A one-keyword filter made through v1 is titled by its phrase; keep them together.
      title:
        filter.keywords.length === 1 && input.phrase !== undefined ? input.phrase : filter.title,
      context,
      action,
      expiresAt,
      keywords: filter.keywords.map((k) => (k.id === keywordId ? changed : k)),
    });
    return { filter: saved, keyword: changed };
  });
}
