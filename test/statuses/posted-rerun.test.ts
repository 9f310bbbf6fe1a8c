// A post's event record is removed after its listeners ran, a moment later and together with
// other requests' records (PostgreSQL: storage/postgres/statement-batch.ts, ADR 0043). Should the
// process end before, the record runs every listener again once its lease is over: here that run
// is made at once (EventBus.runRecorded with the record a post writes), and nothing it does may
// show twice — notifications, conversations — nor fail.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Status } from "../../src/domain/status.ts";
import { intentRecordOf } from "../../src/services/confirm-event.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, post } from "./helpers.ts";

describe("a post's listeners run again after a crash before the record's removal", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob] = await createUsers(server, "alice", "bob");
    const follow = `/api/v1/accounts/${alice.account.id}/follow`;
    await call(server, "POST", follow, { token: bob.token, json: { notify: true } });
  });
  after(() => server.close());

  /** Runs the post's record as the job runner would after the lease: every listener again. */
  async function runAgain(statusId: string): Promise<void> {
    const { ctx } = server.wren;
    const status = (await ctx.storage.statuses.get(statusId)) as Status;
    // The record as a post writes it: the status's id alone (ADR 0050), confirmed from storage.
    const event = JSON.parse(JSON.stringify(intentRecordOf({ type: "status.created", status })));
    await ctx.events.runRecorded({ event, listeners: ctx.events.listenerNames(), intent: true });
  }

  const notifications = async (user: TestUser): Promise<string[]> =>
    ((await call(server, "GET", "/api/v1/notifications", { token: user.token })) as Json[]).map(
      (n) => `${n.type}:${n.status?.id}`,
    );
  const conversations = async (user: TestUser): Promise<Json[]> =>
    call(server, "GET", "/api/v1/conversations", { token: user.token });

  it("notifies once: the mention and the post of an account bob asked to hear of", async () => {
    const status = await post(server, alice, { status: "hello @bob" });
    const before = await notifications(bob);
    assert.deepEqual(before.sort(), [`mention:${status.id}`, `status:${status.id}`].sort());
    await runAgain(status.id);
    assert.deepEqual((await notifications(bob)).sort(), before.sort());
  });

  it("keeps one conversation with one last status for a direct message", async () => {
    const status = await post(server, alice, { status: "@bob just us", visibility: "direct" });
    const before = await conversations(bob);
    assert.equal(before.filter((c: Json) => c.last_status?.id === status.id).length, 1);
    await runAgain(status.id);
    const afterwards = await conversations(bob);
    assert.deepEqual(
      afterwards.map((c: Json) => [c.id, c.last_status?.id]),
      before.map((c: Json) => [c.id, c.last_status?.id]),
    );
  });
});
