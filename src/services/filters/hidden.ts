// What a timeline keeps of a batch once the viewer's `hide` filters of its context have spoken:
// applied while the page is filled (services/fill-page.ts), so a page holds `limit` statuses the
// viewer is to see and paging never stalls on a run of hidden ones. Attachments and polls are
// read only when a hiding filter has keywords to match their text against.

import type { FilterContext } from "../../domain/filter.ts";
import { compileFilters, matchStatus } from "../../domain/filter-match.ts";
import type { MediaAttachment } from "../../domain/media.ts";
import type { Poll } from "../../domain/poll.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { viewerFilterRecords } from "./viewer-filters.ts";

interface WithOriginal {
  status: Status;
  original: Status | null;
}

export async function withoutHidden<T extends WithOriginal>(
  ctx: ServiceContext,
  viewerId: string | null,
  context: FilterContext,
  items: readonly T[],
): Promise<T[]> {
  if (viewerId === null || items.length === 0) return [...items];
  const hiding = (await viewerFilterRecords(ctx, viewerId)).filter(
    (f) => f.action === "hide" && f.context.includes(context),
  );
  const compiled = compileFilters(hiding, ctx.clock.now());
  if (compiled.length === 0) return [...items];

  const propers = items.map((i) => i.original ?? i.status);
  const withText = compiled.some((c) => c.pattern !== null);
  const mediaIds = withText ? [...new Set(propers.flatMap((s) => s.mediaIds))] : [];
  const pollIds = withText ? propers.flatMap((s) => (s.pollId ? [s.pollId] : [])) : [];
  const [media, polls] = await Promise.all([
    mediaIds.length > 0 ? ctx.storage.media.getMany(mediaIds) : new Map<string, MediaAttachment>(),
    pollIds.length > 0 ? ctx.storage.polls.getMany(pollIds) : new Map<string, Poll>(),
  ]);
  const extras = {
    mediaDescription: (id: string) => media.get(id)?.description ?? null,
    pollOptions: (id: string) => polls.get(id)?.options.map((o) => o.title) ?? [],
  };
  return items.filter((i) => matchStatus(compiled, i.status, i.original, extras).length === 0);
}
