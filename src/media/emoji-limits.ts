// Size limits of custom emoji images, apart from the image code so the command line can use
// them without loading the image libraries.

/** Mastodon's limit for local custom emojis (CustomEmoji::LOCAL_LIMIT). */
export const EMOJI_MAX_BYTES = 256 * 1024;

/**
 * What a command sends at most: one byte over the limit, so the server can still say that the
 * file is too large rather than receive a silently shortened one.
 */
export const EMOJI_UPLOAD_BYTES = EMOJI_MAX_BYTES + 1;
