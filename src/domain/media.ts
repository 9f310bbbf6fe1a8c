// A media attachment: uploaded by a local account (or referenced by a remote status), processed
// in the background, then attached to at most one status.

export type MediaType = "image" | "gifv" | "video" | "audio" | "unknown";

/** processing → ready, or processing → failed (with a reason the client can see). */
export type MediaState = "processing" | "ready" | "failed";

export interface MediaDimensions {
  width: number;
  height: number;
  /** "WIDTHxHEIGHT", as Mastodon writes it. */
  size: string;
  aspect: number;
}

/** Mastodon's `meta`: the original's and the preview's facts, plus timing for video/audio. */
export interface MediaMeta {
  /** Images and video have dimensions; audio has only its timing. */
  original?: Partial<MediaDimensions> & {
    duration?: number;
    frame_rate?: string;
    bitrate?: number;
  };
  small?: MediaDimensions;
  focus?: { x: number; y: number };
  /** Audio/video length in seconds, and its "HH:MM:SS.ss" form. */
  duration?: number;
  length?: string;
}

export interface MediaAttachment {
  id: string;
  accountId: string;
  /** The status it is attached to, or null while unattached. */
  statusId: string | null;
  type: MediaType;
  state: MediaState;
  failureReason: string | null;
  /** The type detected from the bytes (never the client's claim). */
  contentType: string;
  fileSize: number;
  /** File-host key of the upload as received, until processing replaces it. */
  uploadKey: string | null;
  /** File-host keys of the processed file and its preview; null until ready. */
  fileKey: string | null;
  previewKey: string | null;
  /** A preview the client uploaded (`thumbnail`), kept over the generated one. */
  customPreviewKey: string | null;
  /** For remote media: the URL on its own server. */
  remoteUrl: string | null;
  description: string | null;
  focus: { x: number; y: number } | null;
  meta: MediaMeta | null;
  blurhash: string | null;
  createdAt: string;
  updatedAt: string;
}
