// Is a reaction name one unicode emoji? Mastodon checks names against the emoji set its web
// client knows; the Unicode "recommended for general interchange" set (RGI) is that same list,
// and the regular expression `v` flag gives it to us without shipping a table.

const RGI_EMOJI = /^\p{RGI_Emoji}$/v;

/** Longest RGI sequence (family and flag ZWJ sequences) is well below this many code units. */
const MAX_EMOJI_LENGTH = 32;

/**
 * True when `name` is exactly one emoji (with its skin tone, ZWJ or keycap parts). A pictograph
 * typed without its emoji variation selector (`❤` for `❤️`) counts too, as keyboards send both.
 */
export function isUnicodeEmoji(name: string): boolean {
  if (name.length === 0 || name.length > MAX_EMOJI_LENGTH) return false;
  if (RGI_EMOJI.test(name)) return true;
  return RGI_EMOJI.test(`${name.replace(/\uFE0F/g, "")}\uFE0F`);
}
