// Shared pieces of the inbox tests: a Wren test server with a fake remote peer, delivery of a
// signed activity followed by running the queued inbox task, and small client API calls.

import assert from "node:assert/strict";
import type { Account } from "../../src/domain/account.ts";
import type { Status } from "../../src/domain/status.ts";
import type { TestUser } from "../helpers/accounts.ts";
import type { TestServer } from "../helpers/server.ts";
import {
  AS_CONTEXT,
  type FakeActor,
  type FakePeer,
  type Json,
  PUBLIC,
  type SendOptions,
} from "./fake-peer.ts";

/** Runs every due job (the queued inbox tasks and what they enqueue) to completion. */
export async function settle(server: TestServer): Promise<void> {
  await server.wren.jobs.runDue();
}

/**
 * Delivers an activity to Wren's shared inbox (or `inbox`), expects `expected` (202: queued),
 * and runs the queue so its effects are visible.
 */
export async function deliver(
  server: TestServer,
  peer: FakePeer,
  activity: Json,
  options: SendOptions & { inbox?: string; expected?: number } = {},
): Promise<Response> {
  const inbox = options.inbox ?? `${server.url}/inbox`;
  const res = await peer.send(inbox, activity, options);
  const text = await res.text();
  assert.equal(res.status, options.expected ?? 202, `${activity?.type}: ${res.status} ${text}`);
  await settle(server);
  return res;
}

export async function api(
  server: TestServer,
  method: string,
  path: string,
  token: string,
  json?: unknown,
): Promise<Json> {
  const res = await server.request(path, {
    method,
    token,
    ...(json === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(json) }),
  });
  const body = await res.json();
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export async function remoteAccount(server: TestServer, actor: FakeActor): Promise<Account> {
  const account = await server.wren.ctx.storage.accounts.findByUri(actor.id);
  assert.ok(account, `no account for ${actor.id}`);
  return account;
}

export async function statusByUri(server: TestServer, uri: string): Promise<Status | undefined> {
  return server.wren.ctx.storage.statuses.findByUri(uri);
}

/** The types of the recipient's notifications caused by `from` (acct contains the host). */
export async function notificationTypes(
  server: TestServer,
  token: string,
  from: FakeActor,
): Promise<string[]> {
  const list: Json[] = await api(server, "GET", "/api/v1/notifications?limit=40", token);
  return list
    .filter((n) => n.account?.url === from.id || n.account?.acct?.startsWith(`${from.username}@`))
    .map((n) => n.type);
}

/** A public Note by `actor` (optionally mentioning local accounts), wrapped in a Create. */
export function createNote(
  peer: FakePeer,
  actor: FakeActor,
  fields: Json = {},
): { create: Json; note: Json } {
  const id = peer.newId("notes");
  const note = {
    id,
    type: "Note",
    attributedTo: actor.id,
    content: "<p>Hello from afar</p>",
    published: new Date().toISOString(),
    to: [PUBLIC],
    cc: [actor.followers],
    url: id,
    ...fields,
  };
  const create = {
    "@context": AS_CONTEXT,
    id: `${id}/activity`,
    type: "Create",
    actor: actor.id,
    published: note.published,
    to: note.to,
    cc: note.cc,
    object: note,
  };
  return { create, note };
}

/** An activity of `actor` with a fresh id on its peer. */
export function activity(peer: FakePeer, actor: FakeActor, type: string, fields: Json): Json {
  return { "@context": AS_CONTEXT, id: peer.newId("activities"), type, actor: actor.id, ...fields };
}

/**
 * `local` follows the peer's `actor` and the peer accepts. The actor first makes itself known
 * by following `knownVia` (by default `local`). Returns the actor's account.
 */
export async function followAccepted(
  server: TestServer,
  peer: FakePeer,
  actor: FakeActor,
  local: TestUser,
  knownVia: string = local.account.uri,
): Promise<Account> {
  await deliver(server, peer, activity(peer, actor, "Follow", { object: knownVia }));
  const account = await remoteAccount(server, actor);
  await api(server, "POST", `/api/v1/accounts/${account.id}/follow`, local.token);
  const request = await server.wren.ctx.storage.followRequests.get(local.account.id, account.id);
  await deliver(server, peer, activity(peer, actor, "Accept", { object: request?.uri }));
  return account;
}
