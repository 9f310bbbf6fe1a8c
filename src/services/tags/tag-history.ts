// A hashtag's use over the last week, as Mastodon's Tag history: for each of the last 7 UTC
// days, newest first, how many public statuses carried it and how many accounts posted them.
// Wren keeps no counters for this: it is counted from the tag index, whose entries carry the
// author, with the day read off the status id (ids are creation times, domain/ids.ts).

import { idFromTime, timeFromId } from "../../domain/ids.ts";
import type { ServiceContext } from "../context.ts";

export interface TagDay {
  /** UNIX time of the day's midnight (UTC), in seconds. */
  day: number;
  uses: number;
  accounts: number;
}

const DAY_MS = 86_400_000;
export const HISTORY_DAYS = 7;
const PAGE = 400;
/** Most entries read per tag: a tag busier than this shows the week's newest ones only. */
const MAX_SCANNED = 4000;

export async function tagHistory(ctx: ServiceContext, name: string): Promise<TagDay[]> {
  const today = Math.floor(ctx.clock.now().getTime() / DAY_MS) * DAY_MS;
  const days = Array.from({ length: HISTORY_DAYS }, (_, i) => ({
    day: (today - i * DAY_MS) / 1000,
    uses: 0,
    authors: new Set<string>(),
  }));
  const oldest = today - (HISTORY_DAYS - 1) * DAY_MS;
  // Strictly above: every id made from the window's first midnight on.
  const sinceId = (BigInt(idFromTime(new Date(oldest))) - 1n).toString();
  let maxId: string | undefined;
  for (let scanned = 0; scanned < MAX_SCANNED; scanned += PAGE) {
    const entries = await ctx.storage.statuses.listTagEntries(
      name,
      { limit: PAGE, sinceId, maxId },
      { origin: "all" },
    );
    for (const entry of entries) {
      const dayStart = Math.floor(timeFromId(entry.status_id).getTime() / DAY_MS) * DAY_MS;
      // Ids minted ahead of our clock count for today.
      const slot = days[Math.max(0, (today - dayStart) / DAY_MS)];
      if (!slot) continue;
      slot.uses += 1;
      slot.authors.add(entry.account_id);
    }
    if (entries.length < PAGE) break;
    maxId = entries[entries.length - 1]?.status_id;
  }
  return days.map(({ day, uses, authors }) => ({ day, uses, accounts: authors.size }));
}
