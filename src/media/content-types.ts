// File extensions of hosted files and the Content-Type they are served with. The stored
// extension is decided by the server from the detected content, so serving by extension never
// trusts a client. Only media types are listed: a hosted file must never be served as HTML,
// script or an ActivityPub document.

const BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  flac: "audio/flac",
};

const EXTENSION_OF: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/ogg": "ogg",
  "audio/wav": "wav",
  "audio/flac": "flac",
};

/** The Content-Type to serve a key with; unknown extensions are opaque bytes. */
export function contentTypeForKey(key: string): string {
  const dot = key.lastIndexOf(".");
  const slash = key.lastIndexOf("/");
  if (dot <= slash + 1) return "application/octet-stream";
  return BY_EXTENSION[key.slice(dot + 1).toLowerCase()] ?? "application/octet-stream";
}

/** The extension a file of this media type is stored with, if it is one we host. */
export function extensionForContentType(contentType: string): string | undefined {
  return EXTENSION_OF[contentType.toLowerCase()];
}
