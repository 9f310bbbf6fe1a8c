// Filters as Mastodon's entities: Filter (with its keywords and statuses, except inside a
// FilterResult), FilterKeyword, FilterStatus, FilterResult (why a status is filtered) and
// V1::Filter (one keyword of a filter, the v1 compatibility view). Pure.

import type {
  CustomFilter,
  FilterAction,
  FilterContext,
  FilterKeyword,
  FilterStatusEntry,
} from "../../domain/filter.ts";
import type { FilterMatch } from "../../domain/filter-match.ts";

export interface FilterKeywordJson {
  id: string;
  keyword: string;
  whole_word: boolean;
}

export interface FilterStatusJson {
  id: string;
  status_id: string;
}

export interface FilterJson {
  id: string;
  title: string;
  context: FilterContext[];
  expires_at: string | null;
  filter_action: FilterAction;
  keywords?: FilterKeywordJson[];
  statuses?: FilterStatusJson[];
}

export interface FilterResultJson {
  filter: FilterJson;
  keyword_matches: string[] | null;
  status_matches: string[] | null;
}

export interface V1FilterJson {
  id: string;
  phrase: string;
  context: FilterContext[];
  whole_word: boolean;
  expires_at: string | null;
  irreversible: boolean;
}

export function serializeFilterKeyword(keyword: FilterKeyword): FilterKeywordJson {
  return { id: keyword.id, keyword: keyword.keyword, whole_word: keyword.wholeWord };
}

export function serializeFilterStatus(entry: FilterStatusEntry): FilterStatusJson {
  return { id: entry.id, status_id: entry.statusId };
}

function filterFields(filter: CustomFilter): FilterJson {
  return {
    id: filter.id,
    title: filter.title,
    context: [...filter.context],
    expires_at: filter.expiresAt,
    filter_action: filter.action,
  };
}

export function serializeFilter(filter: CustomFilter): FilterJson {
  return {
    ...filterFields(filter),
    keywords: filter.keywords.map(serializeFilterKeyword),
    statuses: filter.statuses.map(serializeFilterStatus),
  };
}

/** The filter inside a result leaves out its keywords and statuses, as Mastodon's does. */
export function serializeFilterResult(match: FilterMatch): FilterResultJson {
  return {
    filter: filterFields(match.filter),
    keyword_matches: match.keywordMatches,
    status_matches: match.statusMatches,
  };
}

export function serializeV1Filter(filter: CustomFilter, keyword: FilterKeyword): V1FilterJson {
  return {
    id: keyword.id,
    phrase: keyword.keyword,
    context: [...filter.context],
    whole_word: keyword.wholeWord,
    expires_at: filter.expiresAt,
    irreversible: filter.action === "hide",
  };
}
