// The shell of the public pages (profile, status, error): the <head> with its description, Open
// Graph tags, canonical URL and ActivityPub alternate link, and the response with security
// headers. Images may come from the file host or remote servers, so each page records the
// origins it uses and its CSP allows those alone.

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { HttpEnv } from "../env.ts";
import { contentSecurityPolicy, escapeHtml } from "./html.ts";
import { WEB_STYLE } from "./style.ts";

/** The origins of the images and audio/video a page shows, gathered while rendering. */
export interface PageAssets {
  images: Set<string>;
  media: Set<string>;
}

export function newAssets(): PageAssets {
  return { images: new Set(), media: new Set() };
}

function originOf(url: string): string | null {
  try {
    const { protocol, origin } = new URL(url);
    return protocol === "https:" || protocol === "http:" ? origin : null;
  } catch {
    return null;
  }
}

/** Records where an image comes from; a URL that is not http(s) is never shown (null). */
export function useImage(assets: PageAssets, url: string): string | null {
  const origin = originOf(url);
  if (origin === null) return null;
  assets.images.add(origin);
  return url;
}

/** Records where an audio or video file comes from (null: not http(s), not shown). */
export function useMedia(assets: PageAssets, url: string): string | null {
  const origin = originOf(url);
  if (origin === null) return null;
  assets.media.add(origin);
  return url;
}

/** A feed of what the page shows, announced with <link rel="alternate">. */
export interface PageFeed {
  type: "application/rss+xml" | "application/atom+xml";
  href: string;
  title: string;
}

export interface PageMeta {
  title: string;
  description: string;
  /** The canonical URL (also og:url). */
  url: string | null;
  ogType: "profile" | "article" | "website";
  image: string | null;
  /** The ActivityPub id of what the page shows, for `rel="alternate"`. */
  activityUri: string | null;
  siteName: string;
  feeds?: readonly PageFeed[];
  /** Error pages are not for search engines. */
  noindex?: boolean;
}

function metaTag(attribute: "name" | "property", key: string, content: string): string {
  return `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
}

function headTags(meta: PageMeta): string {
  const tags = [
    metaTag("name", "description", meta.description),
    metaTag("property", "og:site_name", meta.siteName),
    metaTag("property", "og:type", meta.ogType),
    metaTag("property", "og:title", meta.title),
    metaTag("property", "og:description", meta.description),
  ];
  if (meta.url) {
    tags.push(metaTag("property", "og:url", meta.url));
    tags.push(`<link rel="canonical" href="${escapeHtml(meta.url)}">`);
  }
  if (meta.image) {
    tags.push(metaTag("property", "og:image", meta.image));
    tags.push(metaTag("name", "twitter:card", "summary"));
  }
  if (meta.activityUri) {
    tags.push(
      `<link rel="alternate" type="application/activity+json" href="${escapeHtml(meta.activityUri)}">`,
    );
  }
  for (const feed of meta.feeds ?? []) {
    tags.push(
      `<link rel="alternate" type="${feed.type}" title="${escapeHtml(feed.title)}" href="${escapeHtml(feed.href)}">`,
    );
  }
  if (meta.noindex) tags.push(metaTag("name", "robots", "noindex"));
  return tags.join("\n");
}

export function renderDocument(meta: PageMeta, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(meta.title)}</title>
${headTags(meta)}
<style>${WEB_STYLE.css}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function sendPage(
  c: Context<HttpEnv>,
  status: ContentfulStatusCode,
  html: string,
  assets: PageAssets,
): Response {
  c.header(
    "Content-Security-Policy",
    contentSecurityPolicy({
      style: WEB_STYLE,
      imageOrigins: assets.images,
      mediaOrigins: assets.media,
    }),
  );
  c.header("X-Content-Type-Options", "nosniff");
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "strict-origin-when-cross-origin");
  // The same URLs answer ActivityPub JSON to peers: caches must key on Accept.
  c.header("Vary", "Accept");
  // Public, but a deleted or restricted status must disappear at once: always revalidate.
  c.header("Cache-Control", "public, no-cache");
  return c.html(html, status);
}
