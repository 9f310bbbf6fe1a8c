// Moving an account between three Wren servers: alice moves from A to B. Bob on C and dave on
// A (with alice in a list) followed alice@A; after the move both follow alice@B, got a `move`
// notification and see alice@A as moved. A move to an account that does not list the old one
// is refused before anything is sent.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runAdminOperation } from "../../../src/admin/operations.ts";
import { AppError } from "../../../src/domain/errors.ts";
import type { Json } from "../../graph/helpers.ts";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  handle,
  type Instance,
  relationship,
  resolveAccount,
  startFederation,
  type TestFederation,
  user,
} from "../../helpers/federation.ts";
import { assertMatchesResponse } from "../../helpers/openapi.ts";
import { signedGet } from "../signed-get.ts";

describe("moving an account between servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let c: Instance;
  let aliceA: TestUser;
  let aliceB: TestUser;
  let bob: TestUser;
  let dave: TestUser;
  let aliceAOnC: Json;
  let listId: string;

  const admin = (instance: Instance, name: string, args: Record<string, unknown>) =>
    runAdminOperation(instance.wren.ctx, name, args);

  before(async () => {
    federation = await startFederation(3);
    [a, b, c] = federation.instances as [Instance, Instance, Instance];
    aliceA = await user(a, "alice");
    aliceB = await user(b, "alice");
    bob = await user(c, "bob");
    dave = await user(a, "dave");
    aliceAOnC = await followRemote(c, bob, a, aliceA);
    await api(a, dave.token, "POST", `/api/v1/accounts/${aliceA.account.id}/follow`);
    listId = (await api(a, dave.token, "POST", "/api/v1/lists", { title: "Friends" })).id;
    await api(a, dave.token, "POST", `/api/v1/lists/${listId}/accounts`, {
      account_ids: [aliceA.account.id],
    });
  });
  after(() => federation.close());

  it("refuses a move to an account that does not name the old one", async () => {
    await assert.rejects(
      admin(a, "account.move", { username: "alice", target: handle(b, "alice") }),
      (error) =>
        error instanceof AppError && error.status === 422 && /alsoKnownAs/.test(error.message),
    );
    const shown = await api(c, bob.token, "GET", `/api/v1/accounts/${aliceAOnC.id}`);
    assert.equal(shown.moved, undefined);
    assert.equal((await relationship(c, bob.token, aliceAOnC.id)).following, true);
  });

  it("publishes an alias in the new account's alsoKnownAs", async () => {
    const aliases = await admin(b, "account.alias.add", {
      username: "alice",
      alias: handle(a, "alice"),
    });
    assert.deepEqual(aliases, [aliceA.account.uri]);
    assert.deepEqual(await admin(b, "account.alias.list", { username: "alice" }), aliases);
    const actor = await signedGet(c, "bob", aliceB.account.uri);
    assert.deepEqual([actor.body.alsoKnownAs].flat(), [aliceA.account.uri]);
  });

  it("moves remote and local followers, lists included, with a move notification", async () => {
    const moved = (await admin(a, "account.move", {
      username: "alice",
      target: handle(b, "alice"),
    })) as Json;
    assert.equal(moved.movedTo, aliceB.account.uri);

    // The old actor keeps answering and names the new one.
    const actor = await signedGet(c, "bob", aliceA.account.uri);
    assert.equal(actor.body.movedTo, aliceB.account.uri);

    // Bob's server followed the Move: bob follows alice@B, not alice@A, and was told.
    const aliceBOnC = await resolveAccount(c, bob.token, handle(b, "alice"));
    await eventually(async () => {
      assert.equal((await relationship(c, bob.token, aliceBOnC.id)).following, true);
      assert.equal((await relationship(c, bob.token, aliceAOnC.id)).following, false);
    });
    const notes: Json[] = await api(c, bob.token, "GET", "/api/v1/notifications?types[]=move");
    assertMatchesResponse("GET", "/api/v1/notifications", 200, notes);
    assert.equal(notes.length, 1);
    assert.equal(notes[0].account.id, aliceAOnC.id);
    assert.equal(notes[0].account.moved?.id, aliceBOnC.id);
    // B has bob as a follower of its alice.
    await eventually(async () => {
      const followers = await api(
        b,
        aliceB.token,
        "GET",
        `/api/v1/accounts/${aliceB.account.id}/followers`,
      );
      assert.ok(followers.some((f: Json) => f.acct === handle(c, "bob")));
    });

    // Dave, on alice's old server, moved too, and alice@B took alice@A's place in his list.
    const aliceBOnA = await resolveAccount(a, dave.token, handle(b, "alice"));
    await eventually(async () => {
      assert.equal((await relationship(a, dave.token, aliceBOnA.id)).following, true);
    });
    assert.equal((await relationship(a, dave.token, aliceA.account.id)).following, false);
    const members = await api(a, dave.token, "GET", `/api/v1/lists/${listId}/accounts`);
    assert.deepEqual(
      members.map((m: Json) => m.id),
      [aliceBOnA.id],
    );
    const daveNotes: Json[] = await api(a, dave.token, "GET", "/api/v1/notifications");
    assert.deepEqual(
      daveNotes.map((n) => [n.type, n.account.id]),
      [["move", aliceA.account.id]],
    );

    // The profile on A says where alice went, in the API and on the web page.
    const shown = await api(a, dave.token, "GET", `/api/v1/accounts/${aliceA.account.id}`);
    assertMatchesResponse("GET", "/api/v1/accounts/{id}", 200, shown);
    assert.equal(shown.moved.id, aliceBOnA.id);
    const page = await fetch(`${a.url}/@alice`);
    assert.match(await page.text(), /has moved to <a href="[^"]+">@?alice@/);
  });
});
