// When what a viewer is shown changes next with the clock alone: the earliest end, still ahead,
// of one of their filters (a filter past its end no longer applies) or mutes (a mute past its end
// no longer hides), both judged against the clock where they are read. Signed-in answers kept
// between writes (http/middleware/api-caching.ts, ADR 60) live no longer than that. Read from the
// records kept per viewer (viewer-memo.ts): a few lookups once per rendering.
//
// A poll turning `expired` is the one clock change this does not cover (it depends on the page,
// not on the viewer): kept answers bound it by their time, as anonymous ones do.

import type { ServiceContext } from "./context.ts";
import { viewerFilterRecords } from "./filters/viewer-filters.ts";
import { OWN_SHUT_OUTS } from "./timelines/exclusions.ts";
import { keptForViewer } from "./viewer-memo.ts";

/** The earliest of `ends` (ISO times, null: never) after `now`; Infinity when none is. */
function earliestAfter(now: number, ends: Iterable<string | null>): number {
  let earliest = Number.POSITIVE_INFINITY;
  for (const end of ends) {
    if (end === null) continue;
    const at = Date.parse(end);
    if (at > now && at < earliest) earliest = at;
  }
  return earliest;
}

/** Clock milliseconds of the viewer's next lapse after `now`; Infinity when none is due. */
export async function nextLapse(
  ctx: ServiceContext,
  viewerId: string | null,
  now: number,
): Promise<number> {
  if (viewerId === null) return Number.POSITIVE_INFINITY;
  const [filters, own] = await Promise.all([
    viewerFilterRecords(ctx, viewerId),
    keptForViewer(ctx, OWN_SHUT_OUTS, viewerId),
  ]);
  const filterEnds = filters.map((f) => f.expiresAt);
  const muteEnds = Array.from(own.mutes.values(), (m) => m.expiresAt);
  return earliestAfter(now, [...filterEnds, ...muteEnds]);
}
