// What every server-rendered page shares (the OAuth pages and the public profile and status
// pages): escaping, inline stylesheets allowed by their hash, and a Content-Security-Policy that
// permits no script at all. Pages carry no external assets beyond the images they show.

import { createHash } from "node:crypto";

export { escapeHtml } from "../../domain/text/html.ts";

/** An inline stylesheet and the CSP source that allows exactly it. */
export interface InlineStyle {
  css: string;
  source: string;
}

export function inlineStyle(css: string): InlineStyle {
  return { css, source: `'sha256-${createHash("sha256").update(css).digest("base64")}'` };
}

export interface PolicyOptions {
  style: InlineStyle;
  /** Where images may come from besides 'self' and data: (origins). */
  imageOrigins?: Iterable<string>;
  /** Where audio and video may come from (origins); none when empty. */
  mediaOrigins?: Iterable<string>;
}

/** No scripts, no plugins, no framing, no <base> tricks; forms may post only to us. */
export function contentSecurityPolicy(options: PolicyOptions): string {
  const images = ["'self'", "data:", ...new Set(options.imageOrigins ?? [])];
  const media = [...new Set(options.mediaOrigins ?? [])];
  return [
    "default-src 'none'",
    `style-src ${options.style.source}`,
    `img-src ${images.join(" ")}`,
    ...(media.length > 0 ? [`media-src ${media.join(" ")}`] : []),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
