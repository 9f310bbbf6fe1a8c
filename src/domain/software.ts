// What Wren tells the world about itself (instance endpoints, NodeInfo, User-Agent).

export const WREN_VERSION = "0.1.0";
/**
 * The Mastodon release whose client API Wren implements (quote posts, grouped notifications and
 * the blur filter action included); clients gate features on this version.
 */
export const MASTODON_API_COMPATIBILITY = "4.5.0";
/**
 * Mastodon's `api_versions.mastodon` for that release: apps offer quoting only from 7 on.
 */
export const MASTODON_API_VERSION = 7;
/** `version` of the instance entity: Mastodon's form for compatible servers. */
export const INSTANCE_VERSION = `${MASTODON_API_COMPATIBILITY} (compatible; Wren ${WREN_VERSION})`;
/** Where the source is published (the AGPL asks every server to link it). */
export const SOURCE_URL = "https://github.com/wren-social/wren";
