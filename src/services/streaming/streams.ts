// The streams of Mastodon's streaming API: their names, the parameters some take (a hashtag, a
// list), the scope a token needs for each, and which public statuses each public stream takes
// (Mastodon's FanOutOnWriteService: public, not a boost, not a reply to someone else on the
// public streams; local or remote; with media for the :media variants; hashtag streams keep
// replies). Whether a viewer may see a status is decided per viewer (audience.ts).

import type { Status } from "../../domain/status.ts";
import { isReplyToOther } from "../timelines/public-filter.ts";
import { normalizeTag } from "../timelines/tag.ts";

export const STREAM_NAMES = [
  "user",
  "user:notification",
  "public",
  "public:media",
  "public:local",
  "public:local:media",
  "public:remote",
  "public:remote:media",
  "hashtag",
  "hashtag:local",
  "list",
  "direct",
] as const;

export type StreamName = (typeof STREAM_NAMES)[number];

export interface StreamSpec {
  name: StreamName;
  /** The normalised hashtag of `hashtag` and `hashtag:local`. */
  tag?: string;
  /** The list id of `list`. */
  list?: string;
}

export interface StreamParams {
  tag?: string | undefined;
  list?: string | undefined;
  /** The `only_media` switch of the server-sent events paths. */
  onlyMedia?: boolean;
}

/**
 * Why a stream cannot be opened: Mastodon's RequestError (400), or its AuthenticationError (401)
 * for a scope the token lacks or a list that is not the viewer's.
 */
export class StreamRequestError extends Error {
  readonly status: 400 | 401;
  constructor(message: string, status: 400 | 401 = 400) {
    super(message);
    this.status = status;
  }
}

const NAMES: ReadonlySet<string> = new Set(STREAM_NAMES);

/** The stream a name and its parameters ask for; throws StreamRequestError. */
export function parseStream(name: string, params: StreamParams): StreamSpec {
  if (!NAMES.has(name)) throw new StreamRequestError("Unknown stream type");
  let streamName = name as StreamName;
  if (params.onlyMedia && streamName.startsWith("public") && !streamName.endsWith(":media")) {
    streamName = `${streamName}:media` as StreamName;
  }
  if (streamName === "hashtag" || streamName === "hashtag:local") {
    if (!params.tag) throw new StreamRequestError("Missing tag name parameter");
    // A name that cannot be a hashtag is taken as given: it simply never matches.
    const tag = normalizeTag(params.tag) ?? params.tag;
    return { name: streamName, tag };
  }
  if (streamName === "list") {
    if (!params.list) throw new StreamRequestError("Missing list name parameter");
    return { name: streamName, list: params.list };
  }
  return { name: streamName };
}

/** One key per distinct stream: a connection subscribes to each at most once. */
export function streamKey(spec: StreamSpec): string {
  return [spec.name, spec.tag ?? spec.list ?? ""].join("|");
}

/** The `stream` array of a WebSocket message: the name, and the tag or list id given. */
export function streamLabel(spec: StreamSpec): string[] {
  if (spec.tag !== undefined) return [spec.name, spec.tag];
  if (spec.list !== undefined) return [spec.name, spec.list];
  return [spec.name];
}

/**
 * The scope a token needs for the stream (`read` admits both). The user stream carries
 * notifications only for tokens that may also read those (canReadNotifications).
 */
export function streamScope(name: StreamName): string {
  return name === "user:notification" ? "read:notifications" : "read:statuses";
}

export function isPublicStream(name: StreamName): boolean {
  return name.startsWith("public") || name.startsWith("hashtag");
}

/** Whether a public or hashtag stream takes the status, before any viewer's rules. */
export function publicStreamTakes(spec: StreamSpec, status: Status): boolean {
  if (status.visibility !== "public" || status.reblogOfId !== null || status.deleted) return false;
  const { name } = spec;
  if (name.includes(":local") && !status.local) return false;
  if (name.includes(":remote") && status.local) return false;
  if (name.endsWith(":media") && status.mediaIds.length === 0) return false;
  if (name.startsWith("hashtag")) {
    return status.tags.some((t) => t.normalize("NFKC").toLowerCase() === spec.tag);
  }
  // The public streams leave out replies to others, as the public timeline does.
  return !isReplyToOther(status);
}
