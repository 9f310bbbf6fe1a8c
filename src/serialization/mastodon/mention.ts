// Mastodon's Status::Mention: the short form of a mentioned account. Pure.

import { type Account, acctOf } from "../../domain/account.ts";

export interface MentionJson {
  id: string;
  username: string;
  url: string;
  acct: string;
}

export function serializeMention(account: Account): MentionJson {
  return { id: account.id, username: account.username, url: account.url, acct: acctOf(account) };
}
