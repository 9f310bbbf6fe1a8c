// A page of the statuses behind the viewer's own edges (favourites, bookmarks), in edge order,
// leaving out those deleted since or no longer visible to the viewer.

import type { Edge } from "../../domain/relations.ts";
import type { Status } from "../../domain/status.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { visibleStatuses } from "../statuses/visibility.ts";

export interface StatusPage {
  statuses: Status[];
  /** Edge ids bounding the page, for Link headers (the edge ids appear nowhere else). */
  newestId: string | undefined;
  oldestId: string | undefined;
}

export async function statusesOfEdges(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
  listEdges: (page: IdPage) => Promise<Edge[]>,
  /** The status an edge leads to: its target, except for quotes (the quoting status). */
  statusOf: (edge: Edge) => string = (edge) => edge.targetId,
): Promise<StatusPage> {
  const filled = await fillPage(page, {
    read: listEdges,
    idOf: (edge) => edge.id,
    async keep(edges) {
      const found = await ctx.storage.statuses.getMany(edges.map(statusOf));
      const live = [...found.values()].filter((s) => !s.deleted);
      const visible = new Set((await visibleStatuses(ctx, viewerId, live)).map((s) => s.id));
      return edges.map((e) => (visible.has(statusOf(e)) ? found.get(statusOf(e)) : undefined));
    },
  });
  return { statuses: filled.items, newestId: filled.newestId, oldestId: filled.oldestId };
}
