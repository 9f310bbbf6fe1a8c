// The RSS 2.0 and Atom 1.0 feeds of an account (/@name.rss, /@name.atom, and per featured tag
// /@name/tagged/:tag.rss) and of a hashtag (/tags/:name.rss, .atom), built from the same status
// views as the pages. Each item links to the status page, carries its sanitised HTML (escaped
// as text, which is how both formats carry HTML), its hashtags as categories and its media
// (Media RSS; the first audio file also as the RSS enclosure podcast apps play).

import type { StatusView } from "../../views/status-view.ts";
import { shownName, type WebContext } from "./context.ts";
import { escapeHtml } from "./html.ts";
import type { PageFeed } from "./layout.ts";
import { mediaFileUrl } from "./status-html.ts";
import { htmlToText, truncate } from "./text.ts";
import { el, type XmlElement, xmlDocument } from "./xml.ts";

export type FeedFormat = "rss" | "atom";

/** The feed URL of a page address (`…/@alice` → `…/@alice.rss`). */
export function feedUrl(pageUrl: string, format: FeedFormat): string {
  return `${pageUrl}.${format}`;
}

/** The <link rel="alternate"> entries announcing a page's feeds. */
export function feedLinks(pageUrl: string, title: string): PageFeed[] {
  return [
    { type: "application/rss+xml", href: feedUrl(pageUrl, "rss"), title },
    { type: "application/atom+xml", href: feedUrl(pageUrl, "atom"), title },
  ];
}

export interface FeedHead {
  title: string;
  description: string;
  /** The HTML page the feed mirrors. */
  pageUrl: string;
  /** The feed's own URL (RSS atom:link rel=self, Atom id and rel=self). */
  selfUrl: string;
  /** An image for the feed (the account's avatar), if any. */
  image: string | null;
}

const ATOM_NS = "http://www.w3.org/2005/Atom";
const MEDIA_NS = "http://search.yahoo.com/mrss/";
const TITLE_LENGTH = 80;

/** A short title: the content warning, else the start of the text, else who posted. */
function itemTitle(view: StatusView): string {
  const { status } = view;
  if (status.spoilerText !== "") return truncate(status.spoilerText, TITLE_LENGTH);
  const text = htmlToText(status.contentHtml).trim();
  return text === "" ? `Post by ${shownName(view.account.account)}` : truncate(text, TITLE_LENGTH);
}

/** What a reader sees: the content warning first, then the content (our sanitised HTML). */
function itemHtml(view: StatusView): string {
  const { status } = view;
  return status.spoilerText === ""
    ? status.contentHtml
    : `<p><strong>${escapeHtml(status.spoilerText)}</strong></p>${status.contentHtml}`;
}

function mediaElements(w: WebContext, view: StatusView): XmlElement[] {
  const out: XmlElement[] = [];
  for (const media of view.media) {
    const url = mediaFileUrl(w, media);
    if (url === null) continue;
    const medium =
      media.type === "gifv" ? "image" : media.type === "unknown" ? undefined : media.type;
    out.push(
      el("media:content", { url, type: media.contentType, fileSize: media.fileSize, medium }, [
        el("media:rating", { scheme: "urn:simple" }, view.status.sensitive ? "adult" : "nonadult"),
        media.description ? el("media:description", { type: "plain" }, media.description) : null,
      ]),
    );
  }
  return out;
}

function rssItem(w: WebContext, view: StatusView): XmlElement {
  const { status } = view;
  const audio = view.media.find((m) => m.type === "audio");
  const audioUrl = audio ? mediaFileUrl(w, audio) : null;
  return el("item", undefined, [
    el("title", undefined, itemTitle(view)),
    el("link", undefined, status.url),
    el("guid", { isPermaLink: "true" }, status.url),
    el("pubDate", undefined, new Date(status.createdAt).toUTCString()),
    el("description", undefined, itemHtml(view)),
    audio && audioUrl
      ? el("enclosure", { url: audioUrl, type: audio.contentType, length: audio.fileSize })
      : null,
    ...mediaElements(w, view),
    ...status.tags.map((tag) => el("category", undefined, tag)),
  ]);
}

export function rssFeed(w: WebContext, head: FeedHead, views: readonly StatusView[]): string {
  const newest = views[0]?.status.createdAt;
  const channel = el("channel", undefined, [
    el("title", undefined, head.title),
    el("link", undefined, head.pageUrl),
    el("description", undefined, head.description),
    el("atom:link", { href: head.selfUrl, rel: "self", type: "application/rss+xml" }),
    newest ? el("lastBuildDate", undefined, new Date(newest).toUTCString()) : null,
    el("generator", undefined, "Wren"),
    head.image
      ? el("image", undefined, [
          el("url", undefined, head.image),
          el("title", undefined, head.title),
          el("link", undefined, head.pageUrl),
        ])
      : null,
    ...views.map((view) => rssItem(w, view)),
  ]);
  return xmlDocument(
    el("rss", { version: "2.0", "xmlns:atom": ATOM_NS, "xmlns:media": MEDIA_NS }, [channel]),
  );
}

function atomEntry(w: WebContext, view: StatusView): XmlElement {
  const { status, account } = view;
  return el("entry", undefined, [
    el("id", undefined, status.uri),
    el("title", undefined, itemTitle(view)),
    el("link", { rel: "alternate", type: "text/html", href: status.url }),
    el("published", undefined, status.createdAt),
    el("updated", undefined, status.editedAt ?? status.createdAt),
    el("author", undefined, [
      el("name", undefined, shownName(account.account)),
      el("uri", undefined, account.account.url),
    ]),
    el("content", { type: "html" }, itemHtml(view)),
    ...status.tags.map((tag) => el("category", { term: tag })),
    ...mediaElements(w, view),
  ]);
}

export function atomFeed(
  w: WebContext,
  head: FeedHead,
  views: readonly StatusView[],
  /** When the feed last changed if it has no entries (RFC 4287 requires an <updated>). */
  emptyUpdated: string,
): string {
  const newest = views[0]?.status.createdAt ?? emptyUpdated;
  return xmlDocument(
    el("feed", { xmlns: ATOM_NS, "xmlns:media": MEDIA_NS }, [
      el("id", undefined, head.selfUrl),
      el("title", undefined, head.title),
      el("subtitle", undefined, head.description),
      el("updated", undefined, newest),
      el("link", { rel: "alternate", type: "text/html", href: head.pageUrl }),
      el("link", { rel: "self", type: "application/atom+xml", href: head.selfUrl }),
      el("generator", undefined, "Wren"),
      head.image ? el("icon", undefined, head.image) : null,
      ...views.map((view) => atomEntry(w, view)),
    ]),
  );
}
