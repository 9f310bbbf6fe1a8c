// Where preview cards are kept: the durable key–value store (both backends, exported and
// imported with the rest), one entry per URL and one per status naming its card's URL.

import type { PreviewCard } from "../../domain/preview-card.ts";
import type { ServiceContext } from "../context.ts";

const CARD = ["wren", "previewCard"];
const STATUS_CARD = ["wren", "statusCard"];

function isCard(value: unknown): value is PreviewCard {
  return (
    typeof value === "object" && value !== null && typeof (value as PreviewCard).url === "string"
  );
}

export async function getPreviewCard(
  ctx: ServiceContext,
  url: string,
): Promise<PreviewCard | null> {
  const entry = await ctx.storage.kv.get([...CARD, url]);
  return isCard(entry?.value) ? entry.value : null;
}

export async function putPreviewCard(ctx: ServiceContext, card: PreviewCard): Promise<void> {
  await ctx.storage.kv.set({ key: [...CARD, card.url], value: card, expiresAt: null });
}

/** Links the status to the card of `url`; null unlinks it (an edit removed the link). */
export async function setStatusCard(
  ctx: ServiceContext,
  statusId: string,
  url: string | null,
): Promise<void> {
  if (url === null) await ctx.storage.kv.delete([...STATUS_CARD, statusId]);
  else await ctx.storage.kv.set({ key: [...STATUS_CARD, statusId], value: url, expiresAt: null });
}

/** The cards of the given statuses, by status id (statuses without one are absent). */
export async function loadStatusCards(
  ctx: ServiceContext,
  statusIds: readonly string[],
): Promise<Map<string, PreviewCard>> {
  // Two reads for a whole page: the statuses' links, then the cards they name.
  const links = await ctx.storage.kv.getMany(statusIds.map((id) => [...STATUS_CARD, id]));
  const urlOf = new Map<string, string>();
  statusIds.forEach((id, i) => {
    const link = links[i]?.value;
    if (typeof link === "string") urlOf.set(id, link);
  });
  if (urlOf.size === 0) return new Map();
  const urls = [...new Set(urlOf.values())];
  const entries = await ctx.storage.kv.getMany(urls.map((url) => [...CARD, url]));
  const cards = new Map<string, PreviewCard>();
  urls.forEach((url, i) => {
    const value = entries[i]?.value;
    if (isCard(value)) cards.set(url, value);
  });
  const out = new Map<string, PreviewCard>();
  for (const [id, url] of urlOf) {
    const card = cards.get(url);
    if (card) out.set(id, card);
  }
  return out;
}
