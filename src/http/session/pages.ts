// The sign-in page of the web session (the OAuth pages' look, no scripts).

import { page } from "../oauth/html.ts";
import { escapeHtml } from "../web/html.ts";

export interface SignInView {
  domain: string;
  csrf: string;
  login: string;
  returnTo: string | null;
  error: string | null;
  signUp: boolean;
  forgotPassword: boolean;
}

export function signInPage(view: SignInView): string {
  const error = view.error
    ? `<p class="error" role="alert" id="form-error">${escapeHtml(view.error)}</p>`
    : "";
  const described = view.error ? ' aria-describedby="form-error"' : "";
  const back = view.returnTo
    ? `<input type="hidden" name="return_to" value="${escapeHtml(view.returnTo)}">`
    : "";
  const links: string[] = [];
  if (view.forgotPassword) links.push('<a href="/auth/password/new">Forgot your password?</a>');
  if (view.signUp) links.push('<a href="/auth/sign_up">Create an account</a>');
  return page(
    "Sign in",
    `<h1>Sign in</h1>
<p>to <strong>${escapeHtml(view.domain)}</strong></p>
${error}
<form method="post" action="/auth/sign_in">
<input type="hidden" name="authenticity_token" value="${escapeHtml(view.csrf)}">
${back}
<label for="login">Email address or username</label>
<input type="text" id="login" name="login" value="${escapeHtml(view.login)}" autocomplete="username" autocapitalize="none" spellcheck="false" required${described}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${described}>
<div class="actions"><button type="submit">Sign in</button></div>
</form>
${links.length === 0 ? "" : `<p class="muted">${links.join(" · ")}</p>`}`,
  );
}
