// Where a user stopped reading a timeline, synced between their apps (Mastodon markers).

export type MarkerTimeline = "home" | "notifications";

export interface Marker {
  accountId: string;
  timeline: MarkerTimeline;
  lastReadId: string;
  /** Incremented on every change; a client's stale write is refused (409). */
  version: number;
  updatedAt: string;
}
