// Custom emojis: `custom-emojis/<emoji_id>.json`, indexed by (shortcode, domain). Shortcodes match
// case-sensitively, as in Mastodon; domains are host names and match in any case.

import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import type { CustomEmojiStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { UniqueIndex } from "./indexes.ts";
import { RecordCollection } from "./record-collection.ts";

/** Local emojis have an empty domain part, which no remote host has. */
const codeKey = (shortcode: string, domain: string | null) =>
  `${shortcode}@${(domain ?? "").toLowerCase()}`;

export async function openCustomEmojiStore(
  root: string,
  writer: DurableWriter,
): Promise<CustomEmojiStore> {
  const byCode = new UniqueIndex();
  const local = new Set<string>();
  const records = await RecordCollection.load<CustomEmoji>(
    root,
    {
      folder: "custom-emojis",
      depth: 0,
      keyOf: (e) => e.id,
      fileOf: (e) => `${e.id}.json`,
      onChange(previous, next) {
        if (previous) {
          byCode.delete(codeKey(previous.shortcode, previous.domain), previous.id);
          local.delete(previous.id);
        }
        if (next) {
          byCode.set(codeKey(next.shortcode, next.domain), next.id);
          if (next.domain === null) local.add(next.id);
        }
      },
    },
    writer,
  );

  const find = (shortcode: string, domain: string | null) => {
    const id = byCode.get(codeKey(shortcode, domain));
    return id === undefined ? undefined : records.get(id);
  };

  return {
    async get(id) {
      return records.get(id);
    },
    async findByShortcode(shortcode, domain) {
      return find(shortcode, domain);
    },
    async findByShortcodes(shortcodes, domain) {
      const found = new Map<string, CustomEmoji>();
      for (const shortcode of shortcodes) {
        const emoji = find(shortcode, domain);
        if (emoji) found.set(shortcode, emoji);
      }
      return found;
    },
    async listLocal() {
      // Code-point order, so the answer does not depend on the host's locale.
      return [...local]
        .map((id) => records.get(id) as CustomEmoji)
        .sort((a, b) => (a.shortcode < b.shortcode ? -1 : a.shortcode > b.shortcode ? 1 : 0));
    },
    async put(emoji) {
      await records.put(emoji);
    },
    delete(id) {
      return records.remove(id);
    },
  };
}
