// The pages for what cannot be shown: an unknown account or status (404), a deleted one (410),
// and a request for ActivityPub JSON at an address that only has HTML (406).

import type { Context } from "hono";
import type { HttpEnv } from "../env.ts";
import { escapeHtml } from "./html.ts";
import { newAssets, renderDocument, sendPage } from "./layout.ts";

const PAGES = {
  404: ["Not found", "The page you are looking for isn't here."],
  410: ["Gone", "This post has been deleted."],
} as const;

export function errorPage(c: Context<HttpEnv>, status: 404 | 410, siteName: string): Response {
  const [title, message] = PAGES[status];
  const body = `<section class="card error-page"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></section>`;
  const html = renderDocument(
    {
      title: `${title} - ${siteName}`,
      description: message,
      url: null,
      ogType: "website",
      image: null,
      activityUri: null,
      siteName,
      noindex: true,
    },
    body,
  );
  return sendPage(c, status, html, newAssets());
}
