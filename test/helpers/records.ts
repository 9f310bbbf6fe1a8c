// Storage records for tests that need data no endpoint can make yet (remote accounts before
// federation, statuses before the status work), written straight through the storage ports.

import type { Account, RemoteActorInfo } from "../../src/domain/account.ts";
import type { Status } from "../../src/domain/status.ts";
import { makeAccount, makeStatus } from "../../src/storage/contract/fixtures.ts";
import type { TestServer } from "./server.ts";

// The storage contract's factories know every field of a record; these only give them the
// server's ids and clock, and plainer defaults than the contract's (no profile fields, no tags).

export function remoteAccountRecord(
  server: TestServer,
  username: string,
  domain: string,
  overrides: Partial<Account> = {},
): Account {
  const ctx = server.wren.ctx;
  const now = ctx.clock.now().toISOString();
  return makeAccount({
    id: ctx.ids.next(),
    username,
    domain,
    displayName: "",
    discoverable: false,
    indexable: false,
    fields: [],
    header: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  });
}

/** The `remote` part of an account record for the actor `uri`, as if fetched at `fetchedAt`. */
export function remoteActorInfo(
  uri: string,
  fetchedAt: string,
  overrides: Partial<RemoteActorInfo> = {},
): RemoteActorInfo {
  return {
    inbox: `${uri}/inbox`,
    sharedInbox: null,
    outbox: `${uri}/outbox`,
    followers: `${uri}/followers`,
    following: null,
    featured: null,
    alsoKnownAs: [],
    movedTo: null,
    followersCount: null,
    followingCount: null,
    statusesCount: null,
    fetchedAt,
    ...overrides,
  };
}

export function statusRecord(
  server: TestServer,
  account: Account,
  overrides: Partial<Status> = {},
): Status {
  const id = server.wren.ctx.ids.next();
  return makeStatus({
    id,
    accountId: account.id,
    uri: `${account.uri}/statuses/${id}`,
    url: `${account.url}/${id}`,
    text: "hello",
    contentHtml: "<p>hello</p>",
    tags: [],
    local: account.domain === null,
    createdAt: server.wren.ctx.clock.now().toISOString(),
    ...overrides,
  });
}
