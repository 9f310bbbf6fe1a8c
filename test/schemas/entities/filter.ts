/**
 * Filter and FilterResult, from Mastodon's documentation (entities/Filter.md,
 * FilterKeyword.md, FilterStatus.md, FilterResult.md): why a status was filtered; and
 * V1::Filter (entities/V1_Filter.md), one keyword of a filter in the v1 API.
 */
import {
  arrayOf,
  boolean,
  dateTime,
  entity,
  nullable,
  object,
  oneOf,
  string,
} from "../json-schema.ts";

export const FilterKeyword = object({ id: string, keyword: string, whole_word: boolean });
export const FilterStatus = object({ id: string, status_id: string });

export const Filter = object(
  {
    id: string,
    title: string,
    context: arrayOf(oneOf("home", "notifications", "public", "thread", "account")),
    filter_action: oneOf("warn", "hide", "blur"),
  },
  {
    expires_at: nullable(dateTime),
    keywords: nullable(arrayOf(entity("FilterKeyword"))),
    statuses: nullable(arrayOf(entity("FilterStatus"))),
  },
  "A user-defined filter",
);

const contexts = arrayOf(oneOf("home", "notifications", "public", "thread", "account"));

export const V1Filter = object(
  {
    id: string,
    phrase: string,
    context: contexts,
    expires_at: nullable(dateTime),
    irreversible: boolean,
    whole_word: boolean,
  },
  {},
  "A filter of the v1 API: one keyword",
);

export const FilterResult = object(
  { filter: entity("Filter") },
  { keyword_matches: nullable(arrayOf(string)), status_matches: nullable(arrayOf(string)) },
  "A filter that matched a status",
);
