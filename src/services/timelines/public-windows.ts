// The public timeline's listing and resolving, which are the same for every viewer: one window of
// the store's public entries and what of them any viewer may be shown (public non-boosts, no
// replies to others), kept per window and Storage.version() (kept-windows.ts). Every reader of the
// public timeline between two writes, signed in or not, then starts from the same resolved
// window; only what depends on the viewer (their exclusions, silenced accounts, visibility,
// `hide` filters) is done per request.

import type { TimelineEntry } from "../../domain/status.ts";
import type { IdPage, PublicFilter } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { keptWindows, windowKey } from "./kept-windows.ts";
import { type PublicOptions, resolvePublic } from "./public-filter.ts";

export { resolvedWindow } from "./kept-windows.ts";

/** Windows of the public timelines' first pages and a few pages on (each ~31 entries). */
const readKept = keptWindows(200);

/**
 * One window of the public entries, as `listPublicEntries` answers it; its resolution
 * (resolvePublic) is then `resolvedWindow(entries)`.
 */
export function readPublicWindow(
  ctx: ServiceContext,
  filter: PublicFilter,
  window: IdPage,
  options: Omit<PublicOptions, "also">,
): Promise<TimelineEntry[]> {
  return readKept(
    ctx,
    windowKey([filter.origin, filter.onlyMedia === true, options.withReplies], window),
    {
      list: () => ctx.storage.statuses.listPublicEntries(window, filter),
      resolve: (entries) => resolvePublic(ctx, entries, options),
    },
  );
}
