// Custom emojis that arrive with remote content: one record per (shortcode, domain), pointing at
// the image where its server publishes it, refreshed when the server's image changes. Rendering
// finds them like local ones (views/custom-emojis.ts matches `:code:`s of the author's domain).

import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import type { ServiceContext } from "../context.ts";
import { rejectsMedia } from "../domain-blocks/domain-blocks.ts";
import type { RemoteEmojiDraft } from "./drafts.ts";

export async function storeRemoteEmojis(
  ctx: ServiceContext,
  domain: string,
  drafts: readonly RemoteEmojiDraft[],
): Promise<void> {
  if (drafts.length === 0) return;
  // A domain block with reject_media: its emojis are not taken (they show as text).
  if (await rejectsMedia(ctx, domain)) return;
  const known = await ctx.storage.customEmojis.findByShortcodes(
    drafts.map((d) => d.shortcode),
    domain,
  );
  const now = ctx.clock.now().toISOString();
  for (const draft of drafts) {
    const current = known.get(draft.shortcode);
    if (current?.remoteUrl === draft.url) continue;
    const emoji: CustomEmoji = {
      id: current?.id ?? ctx.ids.next(),
      shortcode: draft.shortcode,
      domain,
      imageKey: "",
      staticKey: "",
      remoteUrl: draft.url,
      category: null,
      // Other servers' emojis are shown in their content, never offered in our picker.
      visibleInPicker: false,
      createdAt: current?.createdAt ?? now,
      updatedAt: draft.updatedAt ?? now,
    };
    await ctx.storage.customEmojis.put(emoji);
  }
}
