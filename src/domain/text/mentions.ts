// `@mentions` in typed text, found the way Mastodon's Account::MENTION_RE finds them: a
// username (letters, digits, `_`, inner `.`/`-`), optionally `@domain`, not preceded by a word
// character, `=` or `/` (so e-mail addresses and URL paths are not mentions).

export interface FoundMention {
  start: number;
  end: number;
  /** As typed (case kept). */
  username: string;
  /** Lowercased domain (with `:port` if one was typed), or null for `@user` without one. */
  domain: string | null;
  /** The text after `@`: `user` or `user@domain`. */
  acct: string;
}

const WORD = String.raw`\p{L}\p{M}\p{Nd}\p{Pc}`;
// Unlike Mastodon, a domain may carry a port (`@bob@127.0.0.1:4431`): servers on non-standard
// ports (and several instances on one test machine) are reachable only that way. The port
// must end the mention, so `@bob@host:30pm` stays a mention of `bob@host`.
const MENTION = new RegExp(
  `(?<![=/${WORD}])@([a-z0-9_]+(?:[.-]+[a-z0-9_]+)*)(?:@([${WORD}]+(?:[.-]+[${WORD}]+)*(?::\\d{1,5}(?![${WORD}]))?))?`,
  "giu",
);
/** Mastodon skips a mention that runs straight into another `@` or a `://` (a URL). */
const BAD_FOLLOWER = /^(?:[@＠]|:\/\/)/u;

export function findMentions(text: string): FoundMention[] {
  const out: FoundMention[] = [];
  for (const match of text.matchAll(MENTION)) {
    const start = match.index;
    const end = start + match[0].length;
    if (BAD_FOLLOWER.test(text.slice(end))) continue;
    const username = match[1] as string;
    const domain = match[2] ? match[2].toLowerCase() : null;
    out.push({ start, end, username, domain, acct: match[0].slice(1) });
  }
  return out;
}
