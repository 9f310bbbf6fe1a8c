// The pages of the authorization step: the sign-in and consent form, the out-of-band code, the
// error page, and the self-posting form of response_mode=form_post.

import { escapeHtml } from "../web/html.ts";
import { page } from "./html.ts";

const TOP_LEVEL: Record<string, string> = {
  read: "Read all your account's data",
  write: "Modify all your account's data",
  follow: "Follow, unfollow, block and mute accounts",
  push: "Receive your push notifications",
  profile: "Read only your account's profile information",
  "admin:read": "Read all data on the server",
  "admin:write": "Modify all data on the server",
};

/** A short human wording for a scope; the exact scope is shown next to it. */
export function describeScope(scope: string): string {
  const known = TOP_LEVEL[scope];
  if (known) return known;
  const [first, second, third] = scope.split(":");
  const thing = (first === "admin" ? third : second)?.replaceAll("_", " ") ?? scope;
  if (first === "read") return `Read your ${thing}`;
  if (first === "write") return `Change your ${thing}`;
  if (first === "admin") return `${second === "read" ? "Read" : "Modify"} ${thing} on the server`;
  return scope;
}

export interface AuthorizeFormView {
  appName: string;
  appWebsite: string | null;
  domain: string;
  scopes: readonly string[];
  /** Parameters carried from the GET to the POST, re-checked there. */
  hidden: Record<string, string>;
  login: string;
  error: string | null;
  /** Link to the sign-up page (when sign-ups are taken). */
  signUp: boolean;
  /** Link to the password reset (when mail can be sent). */
  forgotPassword: boolean;
}

function websiteLink(website: string | null): string {
  if (!website || !URL.canParse(website) || !/^https?:\/\//i.test(website)) return "";
  const href = escapeHtml(website);
  return ` (<a href="${href}" rel="noopener noreferrer nofollow">${escapeHtml(new URL(website).host)}</a>)`;
}

function accountLinks(view: AuthorizeFormView): string {
  const links: string[] = [];
  if (view.forgotPassword) links.push('<a href="/auth/password/new">Forgot your password?</a>');
  if (view.signUp) links.push('<a href="/auth/sign_up">Create an account</a>');
  return links.length === 0 ? "" : `<p class="muted">${links.join(" · ")}</p>`;
}

export function authorizeFormPage(view: AuthorizeFormView): string {
  const name = escapeHtml(view.appName);
  const hidden = Object.entries(view.hidden)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("\n");
  const scopes = view.scopes
    .map(
      (s) => `<li>${escapeHtml(describeScope(s))} <code class="muted">${escapeHtml(s)}</code></li>`,
    )
    .join("\n");
  const error = view.error
    ? `<p class="error" role="alert" id="form-error">${escapeHtml(view.error)}</p>`
    : "";
  const described = view.error ? ' aria-describedby="form-error"' : "";
  return page(
    `Authorize ${view.appName}`,
    `<h1>Authorize ${name}?</h1>
<p><strong>${name}</strong>${websiteLink(view.appWebsite)} asks to use your account on <strong>${escapeHtml(view.domain)}</strong>.</p>
<h2 id="scopes-heading">This application will be able to</h2>
<ul aria-labelledby="scopes-heading">
${scopes}
</ul>
${error}
<form method="post" action="/oauth/authorize">
${hidden}
<label for="login">Email address or username</label>
<input type="text" id="login" name="login" value="${escapeHtml(view.login)}" autocomplete="username" autocapitalize="none" spellcheck="false" required${described}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${described}>
<div class="actions">
<button type="submit" name="decision" value="approve">Authorize</button>
<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>
</div>
</form>
${accountLinks(view)}`,
  );
}

export function errorPage(title: string, description: string): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(description)}</p>
<p class="muted">You can close this page and try again from the application.</p>`,
  );
}

export function codePage(appName: string, code: string): string {
  return page(
    "Authorization code",
    `<h1>Authorization code</h1>
<p>Copy this code and paste it into <strong>${escapeHtml(appName)}</strong>.</p>
<p class="code"><code id="authorization-code">${escapeHtml(code)}</code></p>
<p class="muted">It works once and expires in ten minutes.</p>`,
  );
}

/** response_mode=form_post without scripts: the person presses Continue. */
export function formPostPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("\n");
  return page(
    "Continue to the application",
    `<h1>Continue to the application</h1>
<form method="post" action="${escapeHtml(action)}">
${inputs}
<div class="actions"><button type="submit">Continue</button></div>
</form>`,
  );
}
