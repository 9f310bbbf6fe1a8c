// Everything in typed text that becomes markup — URLs, mentions, hashtags — as one ordered list
// without overlaps. As in Mastodon's extractor, a URL wins over a mention or hashtag inside it
// (`https://x.example/@user#tag` is one link), and otherwise the earlier entity wins.

import { LruCache } from "../lru-cache.ts";
import { findHashtags } from "./hashtags.ts";
import { findLinks } from "./links.ts";
import { findMentions } from "./mentions.ts";

export type TextEntity =
  | { kind: "url"; start: number; end: number; url: string }
  | {
      kind: "mention";
      start: number;
      end: number;
      username: string;
      domain: string | null;
      acct: string;
    }
  | { kind: "hashtag"; start: number; end: number; name: string };

// Composing one status scans its text several times (length, mentions, tags, HTML): the last
// few answers are kept. Entities are plain values, frozen because they are shared.
const recent = new LruCache<string, readonly TextEntity[]>(16);

export function findEntities(text: string): readonly TextEntity[] {
  let found = recent.get(text);
  if (found === undefined) {
    found = Object.freeze(scanEntities(text).map((e) => Object.freeze(e)));
    recent.set(text, found);
  }
  return found;
}

function scanEntities(text: string): TextEntity[] {
  const links: TextEntity[] = findLinks(text).map((l) => ({ kind: "url", ...l }));
  const others: TextEntity[] = [
    ...findMentions(text).map((m) => ({ kind: "mention" as const, ...m })),
    ...findHashtags(text).map((h) => ({ kind: "hashtag" as const, ...h })),
  ];
  const overlapsLink = (e: TextEntity) => links.some((l) => e.start < l.end && l.start < e.end);
  const all = [...links, ...others.filter((e) => !overlapsLink(e))].sort(
    (a, b) => a.start - b.start,
  );
  const out: TextEntity[] = [];
  for (const entity of all) {
    const previous = out[out.length - 1];
    if (previous && entity.start < previous.end) continue;
    out.push(entity);
  }
  return out;
}
