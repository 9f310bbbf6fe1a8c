// The claims of /oauth/userinfo as Mastodon sends them: issuer, the actor URI as subject, names,
// profile page and avatar. `pictureUrl` is the avatar's resolved URL, null when there is none.

import type { Account } from "../../domain/account.ts";
import { MISSING_AVATAR } from "./account.ts";

export interface UserinfoJson {
  iss: string;
  sub: string;
  name: string;
  preferred_username: string;
  profile: string;
  picture: string;
}

export function serializeUserinfo(
  account: Account,
  publicUrl: string,
  pictureUrl: string | null,
): UserinfoJson {
  return {
    iss: new URL("/", publicUrl).toString(),
    sub: account.uri,
    name: account.displayName,
    preferred_username: account.username,
    profile: account.url,
    // Like Mastodon, a person without an avatar gets the default image's URL.
    picture: pictureUrl ?? new URL(MISSING_AVATAR, publicUrl).toString(),
  };
}
