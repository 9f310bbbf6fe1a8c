// The page of one status (/@username/:id): the status in full, with its counters.

import type { StatusView } from "../../views/status-view.ts";
import { avatarUrl, fullHandle, shownName, type WebContext } from "./context.ts";
import type { PageMeta } from "./layout.ts";
import { useImage } from "./layout.ts";
import { statusHtml } from "./status-html.ts";
import { htmlToText, truncate } from "./text.ts";

/** The first picture of the status for link previews, else the author's avatar. */
function previewImage(w: WebContext, view: StatusView): string {
  const picture = view.media.find((m) => m.type === "image" && m.state === "ready" && m.fileKey);
  if (picture?.fileKey) {
    const url = useImage(w.assets, w.fileUrl(picture.previewKey ?? picture.fileKey));
    if (url) return url;
  }
  return avatarUrl(w, view.account.account);
}

function description(view: StatusView): string {
  const { status } = view;
  // A content warning is all a preview may show of what it covers.
  if (status.spoilerText !== "") return `Content warning: ${status.spoilerText}`;
  const text = htmlToText(status.contentHtml);
  const attachments = view.media.length > 0 ? `Attached: ${view.media.length} media` : "";
  return truncate([text, attachments].filter((part) => part !== "").join(" · "), 300);
}

export function statusPage(w: WebContext, view: StatusView): { meta: PageMeta; body: string } {
  const { account } = view.account;
  const body = `<section class="card">\n${statusHtml(w, view, true)}\n</section>`;
  return {
    meta: {
      title: `${shownName(account)} (${fullHandle(w, account)})`,
      description: description(view),
      url: view.status.url,
      ogType: "article",
      image: previewImage(w, view),
      activityUri: view.status.uri,
      siteName: w.siteName,
    },
    body,
  };
}
