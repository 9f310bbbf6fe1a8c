// A hashtag's page (/tags/:name): the newest public posts carrying it, with older ones a page
// away and its feeds announced.

import type { TagName } from "../../services/tags/tag-name.ts";
import type { StatusView } from "../../views/status-view.ts";
import type { WebContext } from "./context.ts";
import { feedLinks } from "./feeds.ts";
import { escapeHtml } from "./html.ts";
import type { PageMeta } from "./layout.ts";
import { type PagePaging, pagerHtml } from "./pager.ts";
import { statusHtml } from "./status-html.ts";

export function tagPageUrl(w: WebContext, tag: TagName): string {
  return `${w.publicUrl}/tags/${encodeURIComponent(tag.normalized)}`;
}

export function tagPage(
  w: WebContext,
  tag: TagName,
  statuses: readonly StatusView[],
  paging: PagePaging,
): { meta: PageMeta; body: string } {
  const url = tagPageUrl(w, tag);
  const list =
    statuses.length > 0
      ? statuses.map((s) => statusHtml(w, s)).join("\n")
      : '<p class="empty">No public posts with this hashtag yet.</p>';
  const body = `<section class="card section"><h1>#${escapeHtml(tag.display)}</h1></section>
<section class="card" aria-label="Posts">
${list}
${pagerHtml(url, paging)}
</section>`;
  return {
    meta: {
      title: `#${tag.display} - ${w.siteName}`,
      description: `Public posts tagged #${tag.display} on ${w.siteName}`,
      url,
      ogType: "website",
      image: null,
      activityUri: null,
      siteName: w.siteName,
      feeds: feedLinks(url, `#${tag.display}`),
    },
    body,
  };
}
