// A post's listeners share one read of the author's followers (services/event-reads.ts): the
// notifications of those who asked to hear of the author's posts and the federation outbox's
// audience both need them, and each read them before — a statement each on PostgreSQL.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Follow } from "../../src/domain/relations.ts";
import type { IdPage } from "../../src/storage/ports.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, post } from "./helpers.ts";

describe("a post's listeners and the author's followers", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
    const follow = `/api/v1/accounts/${alice.account.id}/follow`;
    await call(server, "POST", follow, { token: bob.token, json: { notify: true } });
    await call(server, "POST", follow, { token: carol.token });
  });
  after(() => server.close());

  /** Whose followers the real store was asked for while `run` ran (it still answers them). */
  async function followerReads(run: () => Promise<unknown>): Promise<string[]> {
    const follows = server.wren.ctx.storage.follows;
    const listTo = follows.listTo.bind(follows);
    const reads: string[] = [];
    follows.listTo = (targetId: string, page: IdPage): Promise<Follow[]> => {
      reads.push(targetId);
      return listTo(targetId, page);
    };
    try {
      await run();
    } finally {
      follows.listTo = listTo;
    }
    return reads;
  }

  it("reads them once for all the listeners, and every listener still gets them", async () => {
    let status: Json;
    const reads = await followerReads(async () => {
      status = await post(server, alice, { status: "for my followers" });
    });
    assert.deepEqual(reads, [alice.account.id]);
    // The notifications listener used the shared read: bob asked to hear, carol did not.
    const heard = async (user: TestUser) =>
      (
        (await call(server, "GET", "/api/v1/notifications?types[]=status", {
          token: user.token,
        })) as Json[]
      ).map((n) => n.status.id);
    assert.deepEqual(await heard(bob), [status.id]);
    assert.deepEqual(await heard(carol), []);
  });

  it("gives the federation outbox the remote followers from the same read", async () => {
    const { ctx } = server.wren;
    const dana = remoteAccountRecord(server, "dana", "remote.example");
    await ctx.storage.accounts.put(dana);
    await ctx.storage.follows.put({
      id: ctx.ids.next(),
      accountId: dana.id,
      targetId: alice.account.id,
      createdAt: ctx.clock.now().toISOString(),
      showReblogs: true,
      notify: false,
      languages: null,
      uri: null,
    });
    const reads = await followerReads(() =>
      post(server, alice, { status: "for the fediverse too" }),
    );
    assert.deepEqual(reads, [alice.account.id]);
  });
});
