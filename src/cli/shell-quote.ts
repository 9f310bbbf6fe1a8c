// Quotes a word for a POSIX shell (sh, bash, zsh), so that a command printed for an operator to
// copy runs with exactly these words: a data directory may hold spaces, quotes or `$`.

/** Characters that no POSIX shell treats specially, even at the start of a word. */
const PLAIN = /^[A-Za-z0-9_./:@%+,=-]+$/;

export function shellQuote(word: string): string {
  if (PLAIN.test(word)) return word;
  // Inside single quotes nothing is special but the single quote itself: end the quoted part,
  // add an escaped quote, and start a new quoted part.
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
