// Which custom emojis a piece of content uses: the `:shortcode:`s in its texts that name a known
// emoji of the content's own domain (local emojis for local content, the remote server's for
// remote content), as Mastodon's `emojis` arrays show. Resolved for many items at once: one
// store lookup per domain, whatever the number of accounts, statuses or announcements.

import { type CustomEmoji, shortcodesIn } from "../domain/custom-emoji.ts";
import { LruCache } from "../domain/lru-cache.ts";
import type { ServiceContext } from "../services/context.ts";

export interface EmojiSource {
  /** null for local content. */
  domain: string | null;
  texts: readonly string[];
}

// Texts of stored records are the same string objects on every read, and scanning them for
// `:shortcode:`s was a visible share of a timeline read: remember the answers, within a bound.
const shortcodeMemo = new LruCache<string, readonly string[]>(20_000);

function memoShortcodes(text: string): readonly string[] {
  let codes = shortcodeMemo.get(text);
  if (codes === undefined) {
    codes = shortcodesIn(text);
    shortcodeMemo.set(text, codes);
  }
  return codes;
}

/** For each source, in order, the emojis its texts use (first appearance first, no repeats). */
export async function resolveEmojis(
  ctx: ServiceContext,
  sources: readonly EmojiSource[],
): Promise<CustomEmoji[][]> {
  const wanted = sources.map((source) => [...new Set(source.texts.flatMap(memoShortcodes))]);
  const byDomain = new Map<string | null, Set<string>>();
  sources.forEach((source, i) => {
    const codes = wanted[i] as string[];
    if (codes.length === 0) return;
    const set = byDomain.get(source.domain) ?? new Set<string>();
    for (const code of codes) set.add(code);
    byDomain.set(source.domain, set);
  });
  const found = new Map<string | null, Map<string, CustomEmoji>>(
    await Promise.all(
      [...byDomain].map(
        async ([domain, codes]) =>
          [domain, await ctx.storage.customEmojis.findByShortcodes([...codes], domain)] as const,
      ),
    ),
  );
  return sources.map((source, i) => {
    const known = found.get(source.domain);
    if (!known) return [];
    return (wanted[i] as string[]).flatMap((code) => {
      const emoji = known.get(code);
      return emoji ? [emoji] : [];
    });
  });
}
