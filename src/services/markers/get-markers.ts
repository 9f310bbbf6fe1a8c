// The viewer's saved reading positions for the requested timelines. Names Mastodon does not
// know are ignored (not an error), and a timeline without a saved marker is simply absent.

import type { Marker, MarkerTimeline } from "../../domain/marker.ts";
import type { ServiceContext } from "../context.ts";
import { isMarkerTimeline } from "./timelines.ts";

export async function getMarkers(
  ctx: ServiceContext,
  accountId: string,
  timelines: readonly string[],
): Promise<Marker[]> {
  const wanted = [...new Set(timelines)].filter(isMarkerTimeline) as MarkerTimeline[];
  const found = await Promise.all(wanted.map((t) => ctx.storage.markers.get(accountId, t)));
  return found.filter((m): m is Marker => m !== undefined);
}
