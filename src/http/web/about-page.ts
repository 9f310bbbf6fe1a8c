// The instance's about page (/): its name and description, a few numbers, its rules, who to
// contact, and how to sign in. Wren has no web app of its own, so signing in happens in a
// Mastodon-compatible app given this server's address; the page says so rather than linking
// to a sign-in form that does not exist.

import type { InstanceView } from "../../views/instance-view.ts";
import { avatarUrl, emojiUrl, fullHandle, shownName, type WebContext } from "./context.ts";
import { escapeHtml } from "./html.ts";
import type { PageMeta } from "./layout.ts";
import { emojifyText, truncate } from "./text.ts";

const REGISTRATIONS = {
  open: "Anyone can create an account here.",
  approval: "New accounts are reviewed by the staff before they can be used.",
  closed: "This server is not taking new accounts.",
} as const;

/** Plain text with blank-line paragraphs, as the description setting is written. */
function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p>${escapeHtml(p).replaceAll("\n", "<br>")}</p>`)
    .join("");
}

function rulesHtml(rules: readonly string[]): string {
  if (rules.length === 0) return "";
  const items = rules.map((rule) => `<li>${escapeHtml(rule)}</li>`).join("");
  return `<section class="card section" aria-labelledby="rules"><h2 id="rules">Rules</h2><ol class="rules">${items}</ol></section>`;
}

function contactHtml(w: WebContext, view: InstanceView): string {
  const parts: string[] = [];
  const admin = view.contactAccount;
  if (admin) {
    const { account } = admin;
    const name = emojifyText(shownName(account), admin.emojis, emojiUrl(w));
    parts.push(
      `<a class="author" href="${escapeHtml(account.url)}"><img class="avatar" src="${escapeHtml(avatarUrl(w, account))}" alt=""><span><span class="name">${name}</span><span class="handle">${escapeHtml(fullHandle(w, account))}</span></span></a>`,
    );
  }
  if (view.contactEmail) {
    const email = escapeHtml(view.contactEmail);
    parts.push(`<p>Email: <a href="mailto:${email}">${email}</a></p>`);
  }
  if (parts.length === 0) return "";
  return `<section class="card section" aria-labelledby="contact"><h2 id="contact">Contact</h2>${parts.join("")}</section>`;
}

export function aboutPage(w: WebContext, view: InstanceView): { meta: PageMeta; body: string } {
  const { settings } = view;
  const count = (n: number, one: string, many: string) =>
    `<li><strong>${n}</strong> ${n === 1 ? one : many}</li>`;
  const body = `<section class="card section">
<h1>${escapeHtml(settings.title)}</h1>
<p class="acct">${escapeHtml(settings.domain)}</p>
<div class="bio">${paragraphs(settings.description)}</div>
<ul class="counts">${count(view.userCount, "user", "users")}${count(view.activeMonth, "active this month", "active this month")}${count(view.statusCount, "post", "posts")}</ul>
</section>
${rulesHtml(settings.rules)}
${contactHtml(w, view)}
<section class="card section" aria-labelledby="sign-in"><h2 id="sign-in">Sign in</h2>
<p>Use any Mastodon-compatible app and enter this server's address, <strong>${escapeHtml(settings.domain)}</strong>, to sign in.</p>
<p>${REGISTRATIONS[settings.registrations]}${settings.registrations === "closed" ? "" : ' <a href="/auth/sign_up">Create an account</a>'}</p>
</section>`;
  return {
    meta: {
      title: settings.title,
      description: truncate(settings.description || `${settings.title} (${settings.domain})`, 300),
      url: `${settings.publicUrl}/`,
      ogType: "website",
      image: null,
      activityUri: null,
      siteName: w.siteName,
    },
    body,
  };
}
