// The account pages under /auth (no scripts, the OAuth pages' look): sign-up, the email
// confirmation result, and the password reset (ask for a mail, then choose a new password).

import { page } from "../oauth/html.ts";
import { escapeHtml } from "../web/html.ts";

export interface SignUpFormView {
  title: string;
  domain: string;
  rules: readonly string[];
  /** A reason is asked for (approval mode without an invite). */
  askReason: boolean;
  inviteCode: string | null;
  csrf: string;
  values: { username: string; email: string; reason: string };
  /** Field → message, from the service's validation details. */
  errors: Record<string, string>;
  /** A problem that is not one field's. */
  error: string | null;
}

function fieldError(view: { errors: Record<string, string> }, field: string): string {
  const message = view.errors[field];
  return message ? `<p class="field-error" id="${field}-error">${escapeHtml(message)}</p>` : "";
}

function describedBy(view: { errors: Record<string, string> }, field: string): string {
  return view.errors[field] ? ` aria-describedby="${field}-error" aria-invalid="true"` : "";
}

function hiddenCsrf(token: string): string {
  return `<input type="hidden" name="authenticity_token" value="${escapeHtml(token)}">`;
}

function alert(error: string | null): string {
  return error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "";
}

export function signUpFormPage(view: SignUpFormView): string {
  const rules =
    view.rules.length === 0
      ? ""
      : `<h2 id="rules-heading">Rules of ${escapeHtml(view.domain)}</h2>
<ol aria-labelledby="rules-heading">${view.rules.map((r) => `<li>${escapeHtml(r)}</li>`).join("")}</ol>`;
  const invite = view.inviteCode
    ? `<input type="hidden" name="invite_code" value="${escapeHtml(view.inviteCode)}">
<p>You were invited to join <strong>${escapeHtml(view.domain)}</strong>.</p>`
    : "";
  const reason = view.askReason
    ? `<label for="reason">Why do you want to join?</label>
<p class="muted">New accounts are reviewed by the staff before they can be used.</p>
<textarea id="reason" name="reason" rows="3" maxlength="420" required${describedBy(view, "reason")}>${escapeHtml(view.values.reason)}</textarea>
${fieldError(view, "reason")}`
    : "";
  return page(
    `Create an account on ${view.title}`,
    `<h1>Create an account</h1>
<p>on <strong>${escapeHtml(view.domain)}</strong></p>
${alert(view.error)}
<form method="post" action="/auth/sign_up">
${hiddenCsrf(view.csrf)}
${invite}
<label for="username">Username</label>
<input type="text" id="username" name="username" value="${escapeHtml(view.values.username)}" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="30" required${describedBy(view, "username")}>
${fieldError(view, "username")}
<label for="email">Email address</label>
<input type="email" id="email" name="email" value="${escapeHtml(view.values.email)}" autocomplete="email" required${describedBy(view, "email")}>
${fieldError(view, "email")}
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="new-password" minlength="8" maxlength="72" required${describedBy(view, "password")}>
${fieldError(view, "password")}
${reason}
${rules}
<label class="check"><input type="checkbox" id="agreement" name="agreement" value="1" required${describedBy(view, "agreement")}> I agree to the rules of this server.</label>
${fieldError(view, "agreement")}
<div class="actions"><button type="submit">Sign up</button></div>
</form>`,
  );
}

export function signedUpPage(view: {
  title: string;
  username: string;
  confirm: boolean;
  approval: boolean;
}): string {
  const steps: string[] = [];
  if (view.confirm) {
    steps.push("We sent you an email: open the link in it to confirm your address.");
  }
  if (view.approval) {
    steps.push("The staff will review your sign-up; you can sign in once it is approved.");
  }
  if (steps.length === 0) steps.push("You can sign in now from any Mastodon-compatible app.");
  return page(
    "Welcome",
    `<h1>Welcome, ${escapeHtml(view.username)}!</h1>
<p role="status">Your account on <strong>${escapeHtml(view.title)}</strong> was created.</p>
${steps.map((s) => `<p>${escapeHtml(s)}</p>`).join("\n")}`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p role="status">${escapeHtml(message)}</p>`,
  );
}

export function forgotPasswordPage(view: { csrf: string; email: string }): string {
  return page(
    "Forgot your password?",
    `<h1>Forgot your password?</h1>
<p>Enter the email address of your account: we will send you a link to choose a new password.</p>
<form method="post" action="/auth/password/new">
${hiddenCsrf(view.csrf)}
<label for="email">Email address</label>
<input type="email" id="email" name="email" value="${escapeHtml(view.email)}" autocomplete="email" required>
<div class="actions"><button type="submit">Send the link</button></div>
</form>`,
  );
}

export function newPasswordPage(view: {
  csrf: string;
  token: string;
  errors: Record<string, string>;
  error: string | null;
}): string {
  return page(
    "Choose a new password",
    `<h1>Choose a new password</h1>
${alert(view.error)}
<form method="post" action="/auth/password">
${hiddenCsrf(view.csrf)}
<input type="hidden" name="reset_password_token" value="${escapeHtml(view.token)}">
<label for="password">New password</label>
<input type="password" id="password" name="password" autocomplete="new-password" minlength="8" maxlength="72" required${describedBy(view, "password")}>
${fieldError(view, "password")}
<div class="actions"><button type="submit">Change the password</button></div>
</form>`,
  );
}
