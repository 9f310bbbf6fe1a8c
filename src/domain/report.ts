// A report about an account (and some of its statuses), as a remote server sends it with a
// Flag activity. Moderators read them; Mastodon keeps the same fields.

export interface Report {
  id: string;
  /** Who reported: the remote account that sent the Flag (often the instance's own actor). */
  accountId: string;
  /** The reported (local) account. */
  targetAccountId: string;
  /** Reported statuses of the target account. */
  statusIds: string[];
  /** The reporter's comment, as plain text. */
  comment: string;
  /** The Flag activity id, so a redelivered Flag is stored once. */
  uri: string | null;
  createdAt: string;
}
