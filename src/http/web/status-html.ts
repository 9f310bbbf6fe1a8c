// One status as an <article>: author, content warning, content (our sanitised HTML), media,
// poll results and the footer with its time and counters. Shared by the profile's list and
// the status page. Everything not our own HTML is escaped.

import type { MediaAttachment } from "../../domain/media.ts";
import type { PollView } from "../../views/poll-view.ts";
import type { StatusView } from "../../views/status-view.ts";
import { avatarUrl, emojiUrl, fullHandle, shownName, type WebContext } from "./context.ts";
import { escapeHtml } from "./html.ts";
import { useImage, useMedia } from "./layout.ts";
import { emojifyHtml, emojifyText } from "./text.ts";

const DATE_FORMAT = new Intl.DateTimeFormat("en", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

export function timeHtml(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(DATE_FORMAT.format(new Date(iso)))} UTC</time>`;
}

function plural(n: number, one: string, many: string): string {
  return `<strong>${n}</strong> ${n === 1 ? one : many}`;
}

export function mediaFileUrl(w: WebContext, media: MediaAttachment): string | null {
  if (media.fileKey !== null && media.state === "ready") return w.fileUrl(media.fileKey);
  return media.remoteUrl;
}

function previewUrl(w: WebContext, media: MediaAttachment): string | null {
  if (media.customPreviewKey !== null) return w.fileUrl(media.customPreviewKey);
  if (media.previewKey !== null && media.state === "ready") return w.fileUrl(media.previewKey);
  return null;
}

function dimensions(media: MediaAttachment): string {
  const small = media.meta?.small ?? media.meta?.original;
  const { width, height } = small ?? {};
  return width && height ? ` width="${width}" height="${height}"` : "";
}

function mediaItem(w: WebContext, media: MediaAttachment): string {
  const fileUrl = mediaFileUrl(w, media);
  if (fileUrl === null) return "";
  const alt = escapeHtml(media.description ?? "");
  const caption = media.description ? `<figcaption>${alt}</figcaption>` : "";
  const preview = previewUrl(w, media);
  const poster = preview ? useImage(w.assets, preview) : null;
  const posterAttr = poster ? ` poster="${escapeHtml(poster)}"` : "";
  if (media.type === "image") {
    const src = useImage(w.assets, preview ?? fileUrl);
    if (src === null) return "";
    return `<a href="${escapeHtml(fileUrl)}"><img src="${escapeHtml(src)}" alt="${alt}"${dimensions(media)} loading="lazy"></a>`;
  }
  const src = useMedia(w.assets, fileUrl);
  if (src === null) return "";
  if (media.type === "gifv") {
    return `<figure><video src="${escapeHtml(src)}"${posterAttr} aria-label="${alt}" autoplay loop muted playsinline></video>${caption}</figure>`;
  }
  if (media.type === "video") {
    return `<figure><video src="${escapeHtml(src)}"${posterAttr} aria-label="${alt}" controls preload="none"></video>${caption}</figure>`;
  }
  if (media.type === "audio") {
    return `<figure><audio src="${escapeHtml(src)}" aria-label="${alt}" controls preload="none"></audio>${caption}</figure>`;
  }
  return `<figure><a href="${escapeHtml(fileUrl)}">Attachment</a>${caption}</figure>`;
}

function mediaHtml(w: WebContext, view: StatusView): string {
  const items = view.media.map((m) => mediaItem(w, m)).filter((html) => html !== "");
  if (items.length === 0) return "";
  const grid = `<div class="media">${items.join("")}</div>`;
  // Sensitive media stay folded until the reader opens them (no script needed).
  if (view.status.sensitive && view.status.spoilerText === "") {
    return `<details class="sensitive"><summary>Sensitive media (show)</summary>${grid}</details>`;
  }
  return grid;
}

function pollHtml(w: WebContext, pollView: PollView): string {
  const { poll, expired } = pollView;
  // Authors may hide the totals until the poll ends.
  const showTotals = !poll.hideTotals || expired;
  const base = poll.multiple ? poll.votersCount : poll.votesCount;
  const options = poll.options.map((option) => {
    const title = emojifyText(option.title, pollView.emojis, emojiUrl(w));
    if (!showTotals) return `<li><span class="option"><span>${title}</span></span></li>`;
    // Widths are classes of the stylesheet: the CSP allows no inline style attributes.
    const percent = base > 0 ? Math.min(100, Math.round((option.votesCount / base) * 100)) : 0;
    return `<li><span class="bar p${percent}"></span><span class="option"><span>${title}</span><span>${percent}%</span></span></li>`;
  });
  const voters = poll.multiple ? poll.votersCount : poll.votesCount;
  const state = expired ? "Closed" : poll.expiresAt ? `Ends ${timeHtml(poll.expiresAt)}` : "Open";
  const counts = showTotals ? `${plural(voters, "person", "people")} · ` : "";
  return `<ul class="poll">${options.join("")}</ul><p class="poll-summary">${counts}${state}</p>`;
}

function authorHtml(w: WebContext, view: StatusView): string {
  const { account } = view.account;
  const name = emojifyText(shownName(account), view.account.emojis, emojiUrl(w));
  return `<a class="author" href="${escapeHtml(account.url)}"><img class="avatar" src="${escapeHtml(avatarUrl(w, account))}" alt=""><span><span class="name">${name}</span><span class="handle">${escapeHtml(fullHandle(w, account))}</span></span></a>`;
}

function bodyHtml(w: WebContext, view: StatusView): string {
  const { status } = view;
  const lang = status.language ? ` lang="${escapeHtml(status.language)}"` : "";
  const content = `<div class="content"${lang}>${emojifyHtml(status.contentHtml, view.emojis, emojiUrl(w))}</div>`;
  const rest = `${mediaHtml(w, view)}${view.poll ? pollHtml(w, view.poll) : ""}`;
  if (status.spoilerText === "") return content + rest;
  const warning = emojifyText(status.spoilerText, view.emojis, emojiUrl(w));
  return `<details class="spoiler"><summary>${warning}</summary>${content}${rest}</details>`;
}

function footerHtml(view: StatusView, standalone: boolean): string {
  const { status } = view;
  const parts = [`<a href="${escapeHtml(status.url)}">${timeHtml(status.createdAt)}</a>`];
  if (status.editedAt) parts.push(`<span>Edited ${timeHtml(status.editedAt)}</span>`);
  if (standalone) {
    parts.push(`<span>${plural(view.repliesCount, "reply", "replies")}</span>`);
    parts.push(`<span>${plural(view.reblogsCount, "boost", "boosts")}</span>`);
    parts.push(`<span>${plural(view.favouritesCount, "favourite", "favourites")}</span>`);
  }
  return `<footer class="meta">${parts.join("")}</footer>`;
}

/** The article of a status; a boost shows who boosted, then the original. */
export function statusHtml(w: WebContext, view: StatusView, standalone = false): string {
  if (view.reblog) {
    const booster = emojifyText(shownName(view.account.account), view.account.emojis, emojiUrl(w));
    const inner = statusInner(w, view.reblog, standalone);
    return `<article class="status"><p class="boosted">↻ ${booster} boosted</p>${inner}</article>`;
  }
  const cls = standalone ? "status standalone" : "status";
  return `<article class="${cls}">${statusInner(w, view, standalone)}</article>`;
}

function statusInner(w: WebContext, view: StatusView, standalone: boolean): string {
  return `${authorHtml(w, view)}${bodyHtml(w, view)}${footerHtml(view, standalone)}`;
}
