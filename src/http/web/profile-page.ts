// The public profile page (/@username): header, avatar, name, a notice when the account moved,
// bio, fields, counters, then the newest public and unlisted posts with a link to older ones.

import type { AccountView } from "../../views/account-view.ts";
import type { StatusView } from "../../views/status-view.ts";
import {
  avatarUrl,
  emojiUrl,
  fullHandle,
  headerUrl,
  shownName,
  type WebContext,
} from "./context.ts";
import { feedLinks } from "./feeds.ts";
import { escapeHtml } from "./html.ts";
import type { PageMeta } from "./layout.ts";
import { type PagePaging, pagerHtml } from "./pager.ts";
import { statusHtml } from "./status-html.ts";
import { emojifyHtml, emojifyText, htmlToText, truncate } from "./text.ts";

function fieldsHtml(w: WebContext, view: AccountView): string {
  const { fields } = view.account;
  if (fields.length === 0) return "";
  const url = emojiUrl(w);
  const rows = fields.map((f) => {
    const cls = f.verifiedAt ? ' class="verified"' : "";
    const check = f.verifiedAt ? ' <span title="Verified link">✓</span>' : "";
    return `<div${cls}><dt>${emojifyText(f.name, view.emojis, url)}</dt><dd>${emojifyHtml(f.valueHtml, view.emojis, url)}${check}</dd></div>`;
  });
  return `<dl class="fields">${rows.join("")}</dl>`;
}

/** Where a moved account went: Mastodon's banner, so visitors find the new place. */
function movedHtml(w: WebContext, view: AccountView): string {
  const target = view.moved?.account;
  if (!target) return "";
  const handle = escapeHtml(fullHandle(w, target));
  return `<p class="moved" role="status">${escapeHtml(shownName(view.account))} has moved to <a href="${escapeHtml(target.url)}">${handle}</a>.</p>`;
}

function countsHtml(view: AccountView): string {
  const item = (n: number, label: string) => `<li><strong>${n}</strong> ${label}</li>`;
  return `<ul class="counts">${item(view.statusesCount, view.statusesCount === 1 ? "post" : "posts")}${item(view.followingCount, "following")}${item(view.followersCount, view.followersCount === 1 ? "follower" : "followers")}</ul>`;
}

export function profilePage(
  w: WebContext,
  view: AccountView,
  statuses: readonly StatusView[],
  paging: PagePaging,
): { meta: PageMeta; body: string } {
  const { account } = view;
  const handle = fullHandle(w, account);
  const plainName = shownName(account);
  const name = emojifyText(plainName, view.emojis, emojiUrl(w));
  const avatar = avatarUrl(w, account);
  const bio = account.noteHtml
    ? `<div class="bio">${emojifyHtml(account.noteHtml, view.emojis, emojiUrl(w))}</div>`
    : "";
  const list =
    statuses.length > 0
      ? statuses.map((s) => statusHtml(w, s)).join("\n")
      : '<p class="empty">No posts here.</p>';
  const body = `<section class="card profile">
<img class="header" src="${escapeHtml(headerUrl(w, account))}" alt="">
<div class="profile-body">
<img class="profile-avatar" src="${escapeHtml(avatar)}" alt="${escapeHtml(plainName)}">
<h1>${name}</h1>
<p class="acct">${escapeHtml(handle)}</p>
${movedHtml(w, view)}
${bio}
${fieldsHtml(w, view)}
${countsHtml(view)}
</div>
</section>
<section class="card" aria-label="Posts">
${list}
${pagerHtml(paging.base ?? account.url, paging)}
</section>`;
  const note = htmlToText(account.noteHtml);
  const summary = `${view.statusesCount} posts, ${view.followingCount} following, ${view.followersCount} followers`;
  return {
    meta: {
      title: `${plainName} (${handle})`,
      description: truncate(note === "" ? summary : `${summary} · ${note}`, 300),
      url: account.url,
      ogType: "profile",
      image: avatar,
      activityUri: account.uri,
      siteName: w.siteName,
      feeds: feedLinks(paging.base ?? account.url, plainName),
    },
    body,
  };
}
