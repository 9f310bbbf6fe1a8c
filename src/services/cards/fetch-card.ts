// The preview-card job: after a status is posted, edited or received, its first link's page is
// fetched (guarded), read for its OpenGraph details and its image re-encoded and stored; the card
// is cached per URL for two weeks, so statuses linking the same page share one fetch. Failures
// of the page (refused address, not HTML, unreadable image) leave the status without a card or
// the card without an image: nothing here is worth retrying.

import { randomBytes } from "node:crypto";
import type { DomainEvent } from "../../domain/events.ts";
import { PREVIEW_CARD_TTL_MS, type PreviewCard } from "../../domain/preview-card.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import type { EventListener } from "../events.ts";
import { getPreviewCard, putPreviewCard, setStatusCard } from "./card-records.ts";
import { firstCardLink } from "./first-link.ts";
import { decodePage, parsePageDetails } from "./open-graph.ts";

export const PREVIEW_CARD_JOB = "preview-card.fetch";

const PAGE_MAX_BYTES = 1024 * 1024;
const IMAGE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Enqueues the card job for every new or edited original status; a deleted status loses its
 * link to the card (the card itself stays: other statuses may share it).
 */
export function previewCardListener(ctx: ServiceContext): EventListener {
  return async (event: DomainEvent) => {
    if (event.type === "status.deleted") {
      await setStatusCard(ctx, event.status.id, null);
      return;
    }
    if (event.type !== "status.created" && event.type !== "status.updated") return;
    const { status } = event;
    if (status.reblogOfId !== null || status.deleted) return;
    if (!ctx.links) return;
    // Most statuses have no link to show: no job for them (a new status has no card to unlink).
    if (cardLinkOf(ctx, status) === null) {
      if (event.type === "status.updated") await setStatusCard(ctx, status.id, null);
      return;
    }
    await ctx.jobs.enqueue(PREVIEW_CARD_JOB, { statusId: status.id });
  };
}

/** The link whose card the status shows; null for none (as Mastodon: attachments win). */
function cardLinkOf(ctx: ServiceContext, status: Status): string | null {
  return status.mediaIds.length > 0
    ? null
    : firstCardLink(status.contentHtml, ctx.settings.publicUrl);
}

async function fetchImage(
  ctx: ServiceContext,
  pageUrl: string,
  image: string | null,
): Promise<Pick<PreviewCard, "imageKey" | "width" | "height" | "blurhash">> {
  const none = { imageKey: null, width: 0, height: 0, blurhash: null };
  if (!image || !ctx.links) return none;
  try {
    const url = new URL(image, pageUrl).href;
    const answer = await ctx.links.fetch(url, { accept: "image/*", maxBytes: IMAGE_MAX_BYTES });
    if (answer.status !== 200) return none;
    // Loaded on first use: the image code (sharp, file-type) would otherwise load in every
    // process that subscribes this listener, each `wren` command among them (ADR 0053).
    const { processCardImage } = await import("../../media/card-image.ts");
    const processed = await processCardImage(answer.body);
    const key = `cache/preview_cards/${randomBytes(8).toString("hex")}.${processed.extension}`;
    await ctx.files.put(key, processed.bytes, processed.contentType);
    return {
      imageKey: key,
      width: processed.width,
      height: processed.height,
      blurhash: processed.blurhash,
    };
  } catch {
    return none;
  }
}

/** Fetches (or reuses) the card of `url`; null when the page gives none. */
async function cardFor(ctx: ServiceContext, url: string): Promise<PreviewCard | null> {
  const cached = await getPreviewCard(ctx, url);
  const now = ctx.clock.now();
  if (cached && now.getTime() - Date.parse(cached.fetchedAt) < PREVIEW_CARD_TTL_MS) return cached;
  if (!ctx.links) return cached;
  let html: string;
  let finalUrl: string;
  try {
    const page = await ctx.links.fetch(url, { accept: "text/html", maxBytes: PAGE_MAX_BYTES });
    if (page.status !== 200 || page.contentType !== "text/html") return cached;
    html = decodePage(page.body, page.charset);
    finalUrl = page.url;
  } catch {
    return cached;
  }
  const details = parsePageDetails(html);
  if (details.title === "") return cached;
  const image = await fetchImage(ctx, finalUrl, details.image);
  const origin = new URL(finalUrl).origin;
  const card: PreviewCard = {
    url,
    title: details.title,
    description: details.description,
    type: "link",
    authorName: details.authorName,
    authorUrl: "",
    providerName: details.siteName,
    providerUrl: details.siteName ? origin : "",
    ...image,
    imageDescription: details.imageAlt,
    fetchedAt: now.toISOString(),
  };
  if (cached?.imageKey && cached.imageKey !== card.imageKey) {
    await ctx.files.delete(cached.imageKey).catch(() => undefined);
  }
  await putPreviewCard(ctx, card);
  return card;
}

/** The job's work: links the status to the card of its first link (or to none). */
export async function fetchStatusCard(ctx: ServiceContext, statusId: string): Promise<void> {
  const status = await ctx.storage.statuses.get(statusId);
  if (!status || status.deleted || status.reblogOfId !== null) return;
  const url = cardLinkOf(ctx, status);
  if (url === null) {
    await setStatusCard(ctx, statusId, null);
    return;
  }
  const card = await cardFor(ctx, url);
  await setStatusCard(ctx, statusId, card ? card.url : null);
}
