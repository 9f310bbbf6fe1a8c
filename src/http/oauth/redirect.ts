// Sends the authorization answer (a code or an error) back to the client's registered redirect
// URI in the response mode it asked for.

import type { Context } from "hono";
import type { ResponseMode } from "../../services/oauth/check-authorization-request.ts";
import type { HttpEnv } from "../env.ts";
import { formPostPage } from "./authorize-pages.ts";
import { htmlResponse, setPageHeaders } from "./html.ts";

export function answerClient(
  c: Context<HttpEnv>,
  redirectUri: string,
  mode: ResponseMode,
  params: Record<string, string | null>,
): Response {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) if (value !== null) fields[key] = value;
  if (mode === "form_post") return htmlResponse(c, 200, formPostPage(redirectUri, fields));
  const url = new URL(redirectUri);
  if (mode === "fragment") {
    url.hash = new URLSearchParams(fields).toString();
  } else {
    for (const [key, value] of Object.entries(fields)) url.searchParams.set(key, value);
  }
  setPageHeaders(c);
  return c.redirect(url.toString(), 302);
}
