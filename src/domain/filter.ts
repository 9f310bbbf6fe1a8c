// Filters (Mastodon's CustomFilter, API v2): a titled group of keywords and statuses the user
// does not want to see in some contexts, with what to do on a match (warn, hide, blur media)
// and an optional expiry. One record holds the filter with its keywords and statuses, which
// have ids of their own (the v2 keyword and status endpoints, and v1 filters, name them).

export const FILTER_CONTEXTS = ["home", "notifications", "public", "thread", "account"] as const;
export type FilterContext = (typeof FILTER_CONTEXTS)[number];

export const FILTER_ACTIONS = ["warn", "hide", "blur"] as const;
export type FilterAction = (typeof FILTER_ACTIONS)[number];

export interface FilterKeyword {
  id: string;
  keyword: string;
  /** Match only at word boundaries (where the keyword begins or ends with a word character). */
  wholeWord: boolean;
}

/** A status the filter names directly. */
export interface FilterStatusEntry {
  id: string;
  statusId: string;
}

export interface CustomFilter {
  id: string;
  accountId: string;
  title: string;
  context: FilterContext[];
  action: FilterAction;
  /** When the filter stops applying; null: never. */
  expiresAt: string | null;
  keywords: FilterKeyword[];
  statuses: FilterStatusEntry[];
  createdAt: string;
  updatedAt: string;
}

export function isFilterContext(value: string): value is FilterContext {
  return (FILTER_CONTEXTS as readonly string[]).includes(value);
}

export function isFilterAction(value: string): value is FilterAction {
  return (FILTER_ACTIONS as readonly string[]).includes(value);
}

/** An expired filter is kept (and listed) but no longer applied. */
export function filterExpired(filter: CustomFilter, now: Date): boolean {
  return filter.expiresAt !== null && Date.parse(filter.expiresAt) <= now.getTime();
}
