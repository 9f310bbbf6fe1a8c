// The timelines a marker can be saved for (Mastodon's Marker::TIMELINES), in Mastodon's order.

import type { MarkerTimeline } from "../../domain/marker.ts";

export const MARKER_TIMELINES: readonly MarkerTimeline[] = ["home", "notifications"];

export function isMarkerTimeline(value: string): value is MarkerTimeline {
  return (MARKER_TIMELINES as readonly string[]).includes(value);
}
