// PreviewCard → Mastodon's PreviewCard entity. Pure. Only "link" cards exist, so `html` and
// `embed_url` are always empty; the image is the copy re-encoded here, never the page's own.

import type { PreviewCard } from "../../domain/preview-card.ts";
import type { UrlContext } from "./account.ts";

export interface PreviewCardJson {
  url: string;
  title: string;
  description: string;
  type: "link";
  author_name: string;
  author_url: string;
  provider_name: string;
  provider_url: string;
  html: string;
  width: number;
  height: number;
  image: string | null;
  image_description: string;
  embed_url: string;
  blurhash: string | null;
  language: string | null;
  published_at: string | null;
  authors: { name: string; url: string; account: null }[];
}

export function serializePreviewCard(card: PreviewCard, urls: UrlContext): PreviewCardJson {
  return {
    url: card.url,
    title: card.title,
    description: card.description,
    type: card.type,
    author_name: card.authorName,
    author_url: card.authorUrl,
    provider_name: card.providerName,
    provider_url: card.providerUrl,
    html: "",
    width: card.width,
    height: card.height,
    image: card.imageKey === null ? null : urls.fileUrl(card.imageKey),
    image_description: card.imageDescription,
    embed_url: "",
    blurhash: card.blurhash,
    language: null,
    published_at: null,
    authors: card.authorName ? [{ name: card.authorName, url: card.authorUrl, account: null }] : [],
  };
}
