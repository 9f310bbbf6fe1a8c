// Complete, valid records for storage tests. Each factory takes the fields a test cares about and
// fills in the rest, so tests say only what matters to them.

import type { Account } from "../../domain/account.ts";
import type { AccessToken, AuthorizationCode, OAuthApp } from "../../domain/oauth.ts";
import type {
  Block,
  Edge,
  Favourite,
  FeaturedTag,
  Follow,
  IdempotencyRecord,
  Mute,
} from "../../domain/relations.ts";
import type { Status, StatusEdit } from "../../domain/status.ts";
import type { User } from "../../domain/user.ts";

export const CREATED = "2025-01-02T03:04:05.000Z";
const LOCAL_ORIGIN = "https://wren.test";

export function makeAccount(fields: Partial<Account> & { id: string }): Account {
  const username = fields.username ?? `user${fields.id}`;
  const domain = fields.domain ?? null;
  const origin = domain === null ? LOCAL_ORIGIN : `https://${domain}`;
  return {
    username,
    domain,
    displayName: `User ${fields.id}`,
    note: "",
    noteHtml: "",
    locked: false,
    bot: false,
    group: false,
    discoverable: true,
    indexable: true,
    fields: [{ name: "site", value: "example", valueHtml: "<p>example</p>", verifiedAt: null }],
    avatar: null,
    header: { kind: "remote", url: `${origin}/h.png`, staticUrl: `${origin}/h.png` },
    uri: `${origin}/users/${username}`,
    url: `${origin}/@${username}`,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...fields,
  };
}

export function makeUser(fields: Partial<User> & { accountId: string }): User {
  return {
    email: `user${fields.accountId}@mail.test`,
    passwordHash: "$scrypt$fake-hash-for-tests",
    role: "user",
    locale: "en",
    defaultVisibility: "public",
    defaultSensitive: false,
    defaultLanguage: null,
    disabled: false,
    createdAt: CREATED,
    ...fields,
  };
}

export function makeApp(fields: Partial<OAuthApp> & { id: string }): OAuthApp {
  return {
    name: `App ${fields.id}`,
    website: null,
    redirectUris: ["urn:ietf:wg:oauth:2.0:oob"],
    scopes: ["read", "write"],
    clientId: `client-${fields.id}`,
    clientSecretHash: `secret-hash-${fields.id}`,
    createdAt: CREATED,
    ...fields,
  };
}

export function makeToken(fields: Partial<AccessToken> & { id: string }): AccessToken {
  return {
    tokenHash: `token-hash-${fields.id}`,
    refreshTokenHash: `refresh-hash-${fields.id}`,
    appId: "1",
    accountId: "1",
    scopes: ["read"],
    createdAt: CREATED,
    revokedAt: null,
    ...fields,
  };
}

export function makeCode(
  fields: Partial<AuthorizationCode> & { codeHash: string },
): AuthorizationCode {
  return {
    appId: "1",
    accountId: "1",
    scopes: ["read"],
    redirectUri: "urn:ietf:wg:oauth:2.0:oob",
    codeChallenge: null,
    codeChallengeMethod: null,
    expiresAt: "2025-01-02T03:14:05.000Z",
    createdAt: CREATED,
    ...fields,
  };
}

export function makeStatus(fields: Partial<Status> & { id: string; accountId: string }): Status {
  const local = fields.local ?? true;
  const origin = local ? LOCAL_ORIGIN : "https://remote.test";
  return {
    uri: `${origin}/statuses/${fields.id}`,
    url: `${origin}/@someone/${fields.id}`,
    text: local ? `status ${fields.id}` : "",
    contentHtml: `<p>status ${fields.id}</p>`,
    spoilerText: "",
    visibility: "public",
    sensitive: false,
    language: "en",
    inReplyToId: null,
    inReplyToAccountId: null,
    conversationId: fields.id,
    reblogOfId: null,
    mentionIds: [],
    tags: ["wren"],
    mediaIds: [],
    pollId: null,
    applicationId: null,
    local,
    createdAt: CREATED,
    editedAt: null,
    deleted: false,
    deletedAt: null,
    ...fields,
  };
}

export function makeStatusEdit(
  fields: Partial<StatusEdit> & { id: string; statusId: string },
): StatusEdit {
  return {
    accountId: "1",
    text: `version ${fields.id}`,
    contentHtml: `<p>version ${fields.id}</p>`,
    spoilerText: "",
    sensitive: false,
    mediaIds: [],
    createdAt: CREATED,
    ...fields,
  };
}

export type EdgeFields = Partial<Edge> & { id: string; accountId: string; targetId: string };

/** A bare edge: bookmarks, pins and conversation mutes carry nothing more. */
export function makeEdge(fields: EdgeFields): Edge {
  return { createdAt: CREATED, ...fields };
}

/** A featured hashtag; the name as typed defaults to the target (the normalised name). */
export function makeFeaturedTag(fields: EdgeFields & Partial<FeaturedTag>): FeaturedTag {
  return { createdAt: CREATED, name: fields.targetId, ...fields };
}

/** Also a follow request, which has the same shape. */
export function makeFollow(fields: EdgeFields & Partial<Follow>): Follow {
  return {
    createdAt: CREATED,
    showReblogs: true,
    notify: false,
    languages: null,
    uri: null,
    ...fields,
  };
}

export function makeBlock(fields: EdgeFields & Partial<Block>): Block {
  return { createdAt: CREATED, uri: null, ...fields };
}

export function makeMute(fields: EdgeFields & Partial<Mute>): Mute {
  return { createdAt: CREATED, hideNotifications: true, expiresAt: null, ...fields };
}

export function makeFavourite(fields: EdgeFields & Partial<Favourite>): Favourite {
  return { createdAt: CREATED, uri: null, ...fields };
}

export function makeIdempotency(
  fields: Partial<IdempotencyRecord> & { keyHash: string },
): IdempotencyRecord {
  return { statusId: "1", createdAt: CREATED, ...fields };
}
