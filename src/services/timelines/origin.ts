// The `local`/`remote`/`only_media` switches of the public and hashtag timelines, as the store's
// PublicFilter. Mastodon applies both `local` and `remote` when both are set, which leaves
// nothing: that case is null.

import type { PublicFilter } from "../../storage/ports.ts";

export interface OriginOptions {
  local?: boolean;
  remote?: boolean;
  onlyMedia?: boolean;
}

export function publicFilterOf(options: OriginOptions): PublicFilter | null {
  if (options.local && options.remote) return null;
  const origin = options.local ? "local" : options.remote ? "remote" : "all";
  return { origin, ...(options.onlyMedia ? { onlyMedia: true } : {}) };
}
