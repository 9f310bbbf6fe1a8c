// The instance's own custom emojis: all of them for the operator, and the list GET
// /api/v1/custom_emojis serves (Mastodon's `listed` scope: local emojis shown in the picker).

import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import type { ServiceContext } from "../context.ts";

function byShortcode(a: CustomEmoji, b: CustomEmoji): number {
  return a.shortcode < b.shortcode ? -1 : a.shortcode > b.shortcode ? 1 : 0;
}

/** Every local emoji, by shortcode. */
export async function listLocalEmojis(ctx: ServiceContext): Promise<CustomEmoji[]> {
  return [...(await ctx.storage.customEmojis.listLocal())].sort(byShortcode);
}

/** Local emojis offered in the picker, by shortcode. */
export async function listPickerEmojis(ctx: ServiceContext): Promise<CustomEmoji[]> {
  return (await listLocalEmojis(ctx)).filter((e) => e.visibleInPicker);
}
