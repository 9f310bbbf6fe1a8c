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
  const out = new Map<string, PreviewCard>();
  await Promise.all(
    statusIds.map(async (id) => {
      const link = await ctx.storage.kv.get([...STATUS_CARD, id]);
      if (typeof link?.value !== "string") return;
      const card = await getPreviewCard(ctx, link.value);
      if (card) out.set(id, card);
    }),
  );
  return out;
}
