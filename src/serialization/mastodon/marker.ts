// Mastodon's Marker entity and the timeline-keyed map both marker endpoints answer. Pure.

import type { Marker, MarkerTimeline } from "../../domain/marker.ts";

export interface MarkerJson {
  last_read_id: string;
  version: number;
  updated_at: string;
}

export function serializeMarker(marker: Marker): MarkerJson {
  return {
    last_read_id: marker.lastReadId,
    version: marker.version,
    updated_at: marker.updatedAt,
  };
}

/** `{"home": {...}, "notifications": {...}}`, keys in the order of the given markers. */
export function serializeMarkerMap(
  markers: readonly Marker[],
): Partial<Record<MarkerTimeline, MarkerJson>> {
  const out: Partial<Record<MarkerTimeline, MarkerJson>> = {};
  for (const marker of markers) out[marker.timeline] = serializeMarker(marker);
  return out;
}
