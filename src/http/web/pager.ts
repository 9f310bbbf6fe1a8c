// The "newest / older" links under a list of statuses (a profile, a hashtag page), paged by
// max_id like the API.

import { escapeHtml } from "./html.ts";

export interface PagePaging {
  /** The page shows statuses older than this id (absent: the newest page). */
  maxId: string | undefined;
  /** Id of the oldest status shown when there may be older ones. */
  olderThan: string | undefined;
  /** The address the pager links extend (default: the page's own). */
  base?: string | undefined;
}

export function pagerHtml(base: string, paging: PagePaging): string {
  if (!paging.maxId && !paging.olderThan) return "";
  const newer = paging.maxId ? `<a href="${escapeHtml(base)}">Newest posts</a>` : "<span></span>";
  const older = paging.olderThan
    ? `<a href="${escapeHtml(`${base}?max_id=${encodeURIComponent(paging.olderThan)}`)}" rel="next">Older posts</a>`
    : "";
  return `<nav class="pager" aria-label="Pages">${newer}${older}</nav>`;
}
