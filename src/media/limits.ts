// Limits the media pipeline enforces, in one place so that what the instance endpoints announce
// (configuration.media_attachments) is exactly what uploads are held to. The byte limit for
// images is a setting (ServiceContext.settings.maxImageBytes); the rest are fixed here, with
// Mastodon's values.

/** Largest decoded image, width × height (7680 × 4320, Mastodon's value). Refuses decompression bombs. */
export const IMAGE_MATRIX_LIMIT = 33_177_600;
/** Largest video upload in bytes (Mastodon: 99 MiB). */
export const VIDEO_SIZE_LIMIT = 103_809_024;
/** Largest video frame, width × height (3840 × 2160). */
export const VIDEO_MATRIX_LIMIT = 8_294_400;
export const VIDEO_FRAME_RATE_LIMIT = 120;
/** Longest media description (alt text), in characters. */
export const MEDIA_DESCRIPTION_LIMIT = 1500;

/** Upload types accepted for media attachments (validated by content, not by the client's word). */
export const SUPPORTED_MEDIA_TYPES = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
  "video/mp4",
  "video/webm",
  "video/quicktime",
  "audio/mpeg",
  "audio/mp4",
  "audio/ogg",
  "audio/wav",
  "audio/flac",
] as const;

/** Image types accepted for avatars and headers. */
export const PROFILE_IMAGE_TYPES = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
] as const;
