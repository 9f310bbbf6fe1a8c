// Storage records for tests that need data no endpoint can make yet (remote accounts before
// federation, statuses before the status work), written straight through the storage ports.

import type { Account } from "../../src/domain/account.ts";
import type { Status } from "../../src/domain/status.ts";
import type { TestServer } from "./server.ts";

export function remoteAccountRecord(
  server: TestServer,
  username: string,
  domain: string,
  overrides: Partial<Account> = {},
): Account {
  const ctx = server.wren.ctx;
  const now = ctx.clock.now().toISOString();
  return {
    id: ctx.ids.next(),
    username,
    domain,
    displayName: "",
    note: "",
    noteHtml: "",
    locked: false,
    bot: false,
    group: false,
    discoverable: false,
    indexable: false,
    fields: [],
    avatar: null,
    header: null,
    uri: `https://${domain}/users/${username}`,
    url: `https://${domain}/@${username}`,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

export function statusRecord(
  server: TestServer,
  account: Account,
  overrides: Partial<Status> = {},
): Status {
  const id = server.wren.ctx.ids.next();
  return {
    id,
    accountId: account.id,
    uri: `${account.uri}/statuses/${id}`,
    url: `${account.url}/${id}`,
    text: "hello",
    contentHtml: "<p>hello</p>",
    spoilerText: "",
    visibility: "public",
    sensitive: false,
    language: "en",
    inReplyToId: null,
    inReplyToAccountId: null,
    reblogOfId: null,
    mentionIds: [],
    tags: [],
    mediaIds: [],
    pollId: null,
    applicationId: null,
    local: account.domain === null,
    createdAt: server.wren.ctx.clock.now().toISOString(),
    editedAt: null,
    deleted: false,
    deletedAt: null,
    ...overrides,
  };
}
