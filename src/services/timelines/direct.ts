// The direct timeline (GET /api/v1/timelines/direct, deprecated by Mastodon for conversations
// but still called by apps): the direct statuses the viewer wrote or is mentioned in, newest
// first, without those of accounts the viewer shut out. Their authors are the viewer and the
// other participants of the viewer's conversations (services/conversations keeps one entry per
// thread with its participants), so the page is filled from those authors' statuses.

import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { withoutHidden } from "../filters/hidden.ts";
import { walkPages } from "../paging.ts";
import { loadExclusions } from "./exclusions.ts";
import { keepVisible, lineUp, type ResolvedEntry, resolveEntries } from "./resolve-entries.ts";

async function participantsOf(ctx: ServiceContext, viewerId: string): Promise<string[]> {
  const ids = new Set<string>([viewerId]);
  for await (const conversation of walkPages((page) =>
    ctx.storage.conversations.listFor(viewerId, page),
  )) {
    for (const id of conversation.participantIds) ids.add(id);
  }
  return [...ids];
}

export async function directTimeline(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<ResolvedEntry[]> {
  const authors = await participantsOf(ctx, viewerId);
  const filled = await fillPage(page, {
    read: (window) => ctx.storage.statuses.listEntriesByAccounts(authors, window),
    idOf: (entry) => entry.status_id,
    async keep(batch) {
      const resolved = await resolveEntries(ctx, batch);
      const direct = resolved.filter(
        ({ status }) =>
          status.visibility === "direct" &&
          status.reblogOfId === null &&
          (status.accountId === viewerId || status.mentionIds.includes(viewerId)),
      );
      const exclusions = await loadExclusions(
        ctx,
        viewerId,
        direct.map((i) => i.status.accountId),
      );
      const kept = direct.filter((i) => !exclusions.excludes(i.status.accountId));
      const visible = await keepVisible(ctx, viewerId, kept);
      return lineUp(
        batch.map((e) => e.status_id),
        await withoutHidden(ctx, viewerId, "thread", visible),
      );
    },
  });
  return filled.items;
}
