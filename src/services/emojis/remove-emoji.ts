// Removes a local custom emoji and its files. Texts that use its shortcode simply stop showing
// an image, as in Mastodon; reactions with it stay and show the name.

import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

export async function removeCustomEmoji(
  ctx: ServiceContext,
  shortcode: string,
): Promise<CustomEmoji> {
  return ctx.storage.coordination.withLock(`emoji:${shortcode}`, async () => {
    const emoji = await ctx.storage.customEmojis.findByShortcode(shortcode, null);
    if (!emoji) throw notFound(`No custom emoji :${shortcode}:`);
    await ctx.storage.customEmojis.delete(emoji.id);
    // The record is gone first, so a failure here leaves unused files, never a broken emoji.
    await ctx.files.delete(emoji.imageKey);
    if (emoji.staticKey !== emoji.imageKey) await ctx.files.delete(emoji.staticKey);
    return emoji;
  });
}
