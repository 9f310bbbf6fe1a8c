// The one error the media pipeline throws on purpose: the file itself is unacceptable (damaged,
// too large, not what it claims to be). Processing such a file again cannot succeed, so the
// attachment is marked failed with `reason` (written for the person who uploaded it) instead of
// being retried. Any other error is treated as passing (disk, file host, a killed process).

export class MediaProcessingError extends Error {
  readonly reason: string;

  constructor(reason: string) {
    super(reason);
    this.name = "MediaProcessingError";
    this.reason = reason;
  }
}

/** Mastodon's words for a file whose type cannot be confirmed from its bytes. */
export const UNVERIFIED_TYPE = "File type of uploaded media could not be verified";
/** Mastodon's words for a file that was recognised but could not be processed. */
export const PROCESSING_FAILED = "Error processing thumbnail for uploaded media";
