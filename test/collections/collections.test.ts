// Collections (Mastodon 4.6): create with featured accounts, read (owner-tailored items, the
// account's list, "featured in"), update, delete, add/remove items, revoke by the featured
// account; who may be featured (discoverable, locked, blocks, remote); limits; scopes
// read:collections / write:collections; bad input answers 4xx with {"error"}. Every answer is
// checked against Mastodon's entity definitions.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { call, type Json, parseLink } from "../graph/helpers.ts";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("collections", () => {
  let server: TestServer;
  let ann: TestUser;
  let ben: TestUser;
  let cal: TestUser;
  let dot: TestUser;
  let eve: TestUser;

  const profile = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await call(
      server,
      "PATCH",
      "/api/v1/accounts/update_credentials",
      user.token,
      body,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  before(async () => {
    server = await startTestServer({ WREN_RATE_LIMIT_REQUESTS: "100000" });
    [ann, ben, cal, dot, eve] = await createUsers(server, "ann", "ben", "cal", "dot", "eve");
    // ben and eve may be featured by anyone; cal only by followers (locked); dot by no one.
    await profile(ben, { discoverable: true });
    await profile(eve, { discoverable: true });
    await profile(cal, { discoverable: true, locked: true });
  });
  after(() => server.close());

  const create = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await call(server, "POST", "/api/v1/collections", user.token, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesResponse("POST", "/api/v1/collections", 200, res.body);
    return res.body.collection;
  };
  const show = async (id: string, token?: string) => {
    const res = await call(server, "GET", `/api/v1/collections/${id}`, token);
    if (res.status === 200) assertMatchesResponse("GET", "/api/v1/collections/{id}", 200, res.body);
    return res;
  };
  const accountIds = (items: Json[]) => items.map((i: Json) => i.account_id);

  it("creates a collection with its accounts and shows it with the owner and the accounts", async () => {
    const collection = await create(ann, {
      name: "Excellent people",
      description: "Well worth following",
      language: "en",
      tag_name: "#Discovery",
      account_ids: [ben.account.id, eve.account.id],
    });
    assert.equal(collection.account_id, ann.account.id);
    assert.equal(collection.name, "Excellent people");
    assert.equal(collection.description, "Well worth following");
    assert.equal(collection.language, "en");
    assert.equal(collection.local, true);
    assert.equal(collection.sensitive, false);
    assert.equal(collection.discoverable, true);
    assert.equal(collection.item_count, 2);
    assert.equal(collection.tag.name, "Discovery");
    assert.match(collection.tag.url, /\/tags\/discovery$/);
    assert.equal(collection.uri, `${ann.account.uri}/featured_collections/${collection.id}`);
    assert.deepEqual(accountIds(collection.items), [ben.account.id, eve.account.id]);
    assert.deepEqual(
      collection.items.map((i: Json) => i.state),
      ["accepted", "accepted"],
    );

    // Without a token too, with the owner first among the accounts.
    const res = await show(collection.id);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.collection, collection);
    assert.deepEqual(
      res.body.accounts.map((a: Json) => a.id),
      [ann.account.id, ben.account.id, eve.account.id],
    );
    // A form body, as older clients send it.
    const form = await server.request("/api/v1/collections", {
      method: "POST",
      token: ann.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `name=Form&sensitive=1&discoverable=false&account_ids[]=${ben.account.id}`,
    });
    const formBody = (await form.json()) as Json;
    assert.equal(form.status, 200, JSON.stringify(formBody));
    assert.deepEqual(
      [formBody.collection.sensitive, formBody.collection.discoverable],
      [true, false],
    );
    assert.deepEqual(accountIds(formBody.collection.items), [ben.account.id]);
    assert.equal(formBody.collection.tag, null);
  });

  it("features only accounts that allow it: discoverable, locked ones by followers, no blocks, no remote", async () => {
    const attempt = (ids: string[]) =>
      call(server, "POST", "/api/v1/collections", ann.token, { name: "Try", account_ids: ids });
    const refused = async (ids: string[]) => {
      const res = await attempt(ids);
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(typeof res.body.error, "string");
    };
    await refused([dot.account.id]);
    await refused([cal.account.id]);
    const remote = remoteAccountRecord(server, "far", "remote.example", { discoverable: true });
    await server.wren.ctx.storage.accounts.put(remote);
    await refused([remote.id]);
    assert.equal((await attempt(["999999999"])).status, 404);

    // Following a locked account lets one feature it; the owner may feature themself.
    await server.wren.ctx.storage.follows.put({
      id: server.wren.ctx.ids.next(),
      accountId: ann.account.id,
      targetId: cal.account.id,
      createdAt: new Date().toISOString(),
      showReblogs: true,
      notify: false,
      languages: null,
      uri: null,
    });
    await profile(ann, { discoverable: true });
    const ok = await create(ann, { name: "Locked", account_ids: [cal.account.id, ann.account.id] });
    assert.deepEqual(accountIds(ok.items), [cal.account.id, ann.account.id]);

    // Blocks either way refuse the account.
    const block = await call(server, "POST", `/api/v1/accounts/${ann.account.id}/block`, eve.token);
    assert.equal(block.status, 200);
    await refused([eve.account.id]);
    await call(server, "POST", `/api/v1/accounts/${ann.account.id}/unblock`, eve.token);

    for (const id of [ok.id]) {
      await call(server, "DELETE", `/api/v1/collections/${id}`, ann.token);
    }
  });

  it("adds, removes and lets the featured account revoke items", async () => {
    const collection = await create(ann, { name: "Items" });
    const path = `/api/v1/collections/${collection.id}/items`;
    const add = await call(server, "POST", path, ann.token, { account_id: ben.account.id });
    assert.equal(add.status, 200, JSON.stringify(add.body));
    assertMatchesResponse("POST", "/api/v1/collections/{collection_id}/items", 200, add.body);
    const benItem = add.body.collection_item;
    assert.deepEqual([benItem.account_id, benItem.state], [ben.account.id, "accepted"]);
    // A form body, as older clients send it.
    const form = await server.request(path, {
      method: "POST",
      token: ann.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `account_id=${eve.account.id}`,
    });
    const eveAdd = { status: form.status, body: (await form.json()) as Json };
    assert.equal(eveAdd.status, 200, JSON.stringify(eveAdd.body));
    const eveItem = eveAdd.body.collection_item;

    // Twice is refused; so is someone else's collection, a missing or unknown account.
    const again = await call(server, "POST", path, ann.token, { account_id: ben.account.id });
    assert.equal(again.status, 422);
    assert.equal(
      (await call(server, "POST", path, ben.token, { account_id: eve.account.id })).status,
      403,
    );
    const missing = await call(server, "POST", path, ann.token, {});
    assert.equal(missing.status, 422);
    assert.equal(missing.body.error, "`account_id` parameter is missing");
    assert.equal((await call(server, "POST", path, ann.token, { account_id: "nope" })).status, 404);
    assert.equal(
      (await call(server, "POST", path, ann.token, { account_id: "999999" })).status,
      404,
    );
    assert.equal(
      (
        await call(server, "POST", "/api/v1/collections/999999/items", ann.token, {
          account_id: ben.account.id,
        })
      ).status,
      404,
    );

    // Only the featured account may revoke; its item then leaves every view.
    const revoke = `${path}/${benItem.id}/revoke`;
    assert.equal((await call(server, "POST", revoke, ann.token)).status, 403);
    assert.equal((await call(server, "POST", `${path}/999999/revoke`, ben.token)).status, 404);
    const revoked = await call(server, "POST", revoke, ben.token);
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body, null);
    const owner = await show(collection.id, ann.token);
    assert.deepEqual(accountIds(owner.body.collection.items), [eve.account.id]);
    // Mastodon keeps the revoked row (its counter counts it); it cannot be added back.
    assert.equal(owner.body.collection.item_count, 2);
    assert.equal(
      (await call(server, "POST", path, ann.token, { account_id: ben.account.id })).status,
      422,
    );

    // The owner removes an item; someone else may not.
    const remove = `${path}/${eveItem.id}`;
    assert.equal((await call(server, "DELETE", remove, eve.token)).status, 403);
    const removed = await call(server, "DELETE", remove, ann.token);
    assert.equal(removed.status, 200);
    assert.equal((await call(server, "DELETE", remove, ann.token)).status, 404);
    assert.deepEqual((await show(collection.id)).body.collection.items, []);
  });

  it("updates and deletes only the owner's collection, validating every field", async () => {
    const collection = await create(ann, { name: "Before", account_ids: [ben.account.id] });
    const path = `/api/v1/collections/${collection.id}`;
    const patch = await call(server, "PATCH", path, ann.token, {
      name: "After",
      sensitive: "true",
      discoverable: false,
      language: "de",
      tag_name: "cats",
    });
    assert.equal(patch.status, 200, JSON.stringify(patch.body));
    assertMatchesResponse("PATCH", "/api/v1/collections/{id}", 200, patch.body);
    const updated = patch.body.collection;
    assert.deepEqual(
      [updated.name, updated.sensitive, updated.discoverable, updated.language, updated.tag.name],
      ["After", true, false, "de", "cats"],
    );
    assert.deepEqual(accountIds(updated.items), [ben.account.id]);
    // A field left out stays; an empty tag clears it.
    const cleared = await call(server, "PATCH", path, ann.token, { tag_name: "" });
    assert.deepEqual([cleared.body.collection.name, cleared.body.collection.tag], ["After", null]);

    const tooLong = await call(server, "PATCH", path, ann.token, {
      name: "x".repeat(41),
      description: "y".repeat(101),
    });
    assert.equal(tooLong.status, 422);
    assertMatchesResponse("PATCH", "/api/v1/collections/{id}", 422, tooLong.body);
    assert.deepEqual(Object.keys(tooLong.body.details).sort(), ["description", "name"]);
    for (const body of [{ name: "  " }, { tag_name: "#not a tag" }, { language: "english!" }]) {
      const res = await call(server, "PATCH", path, ann.token, body);
      assert.equal(res.status, 422, JSON.stringify(body));
    }
    for (const body of [{ sensitive: "maybe" }, { name: 5 }]) {
      const res = await call(server, "PATCH", path, ann.token, body);
      assert.ok(res.status >= 400 && res.status < 500, JSON.stringify(body));
      assert.equal(typeof res.body.error, "string");
    }
    const blank = await call(server, "POST", "/api/v1/collections", ann.token, {});
    assert.equal(blank.status, 422);
    assertMatchesResponse("POST", "/api/v1/collections", 422, blank.body);

    assert.equal((await call(server, "PATCH", path, ben.token, { name: "Mine" })).status, 403);
    assert.equal((await call(server, "DELETE", path, ben.token)).status, 403);
    assert.equal(
      (await call(server, "PATCH", "/api/v1/collections/999999", ann.token, {})).status,
      404,
    );
    const deleted = await call(server, "DELETE", path, ann.token);
    assert.equal(deleted.status, 200);
    assert.equal((await show(collection.id)).status, 404);
    assert.equal((await call(server, "DELETE", path, ann.token)).status, 404);
  });

  it("lists an account's collections: discoverable ones to others, all to the owner, paged by offset", async () => {
    const fay = await createUserWithToken(server, "fay");
    const made: Json[] = [];
    for (const [name, discoverable] of [
      ["One", true],
      ["Two", false],
      ["Three", true],
      ["Four", true],
    ] as const) {
      made.push(await create(fay, { name, discoverable, account_ids: [ben.account.id] }));
    }
    const path = `/api/v1/accounts/${fay.account.id}/collections`;
    const own = await call(server, "GET", path, fay.token);
    assert.equal(own.status, 200);
    assertMatchesResponse("GET", "/api/v1/accounts/{account_id}/collections", 200, own.body);
    assert.deepEqual(
      own.body.collections.map((c: Json) => c.name),
      ["Four", "Three", "Two", "One"],
    );
    const anonymous = await call(server, "GET", path);
    assert.deepEqual(
      anonymous.body.collections.map((c: Json) => c.name),
      ["Four", "Three", "One"],
    );
    const first = await call(server, "GET", `${path}?limit=2`, ann.token);
    assert.deepEqual(
      first.body.collections.map((c: Json) => c.name),
      ["Four", "Three"],
    );
    const next = parseLink(first.headers.get("link")).next;
    assert.ok(next, "a next link");
    const second = await call(server, "GET", `${next.pathname}${next.search}`, ann.token);
    assert.deepEqual(
      second.body.collections.map((c: Json) => c.name),
      ["One"],
    );
    assert.ok(parseLink(second.headers.get("link")).prev, "a prev link");
    assert.equal((await call(server, "GET", "/api/v1/accounts/999999/collections")).status, 404);

    // An owner who blocks the viewer: the list is empty, one collection is refused.
    await call(server, "POST", `/api/v1/accounts/${ann.account.id}/block`, fay.token);
    const blocked = await call(server, "GET", path, ann.token);
    assert.equal(blocked.status, 200);
    assert.deepEqual(blocked.body, { collections: [] });
    assert.equal((await show(made[0].id, ann.token)).status, 403);
    assert.equal((await show(made[0].id)).status, 200);
    await call(server, "POST", `/api/v1/accounts/${ann.account.id}/unblock`, fay.token);
    for (const c of made) await call(server, "DELETE", `/api/v1/collections/${c.id}`, fay.token);
  });

  it("tailors items: pending ones to the owner alone, none of accounts the viewer blocks or that are gone", async () => {
    const collection = await create(ann, {
      name: "Hiding",
      account_ids: [ben.account.id, eve.account.id],
    });
    await call(server, "POST", `/api/v1/accounts/${eve.account.id}/block`, dot.token);
    const seenByDot = await show(collection.id, dot.token);
    assert.deepEqual(accountIds(seenByDot.body.collection.items), [ben.account.id]);
    assert.deepEqual(
      seenByDot.body.accounts.map((a: Json) => a.id),
      [ann.account.id, ben.account.id],
    );
    assert.deepEqual(accountIds((await show(collection.id)).body.collection.items), [
      ben.account.id,
      eve.account.id,
    ]);

    const { accounts } = server.wren.ctx.storage;
    const benRecord = await accounts.get(ben.account.id);
    assert.ok(benRecord);
    await accounts.put({ ...benRecord, suspended: true });
    assert.deepEqual(accountIds((await show(collection.id)).body.collection.items), [
      eve.account.id,
    ]);
    await accounts.put(benRecord);

    // A pending item (a remote account not yet answering, in Mastodon) shows to the owner alone.
    const stored = await server.wren.ctx.storage.collections.get(collection.id);
    assert.ok(stored);
    await server.wren.ctx.storage.collections.put({
      ...stored,
      items: stored.items.map((i) =>
        i.accountId === eve.account.id ? { ...i, state: "pending" as const } : i,
      ),
    });
    const byOwner = await show(collection.id, ann.token);
    assert.deepEqual(
      byOwner.body.collection.items.map((i: Json) => [i.account_id, i.state]),
      [
        [ben.account.id, "accepted"],
        [eve.account.id, "pending"],
      ],
    );
    assert.deepEqual(accountIds((await show(collection.id, ben.token)).body.collection.items), [
      ben.account.id,
    ]);
    await call(server, "DELETE", `/api/v1/collections/${collection.id}`, ann.token);
  });

  it("lists the collections an account is featured in, to that account alone", async () => {
    const gus = await createUserWithToken(server, "gus");
    await profile(gus, { discoverable: true });
    const a = await create(ann, { name: "With gus", account_ids: [gus.account.id] });
    const b = await create(ben, { name: "Also gus", account_ids: [gus.account.id] });
    const path = `/api/v1/accounts/${gus.account.id}/in_collections`;
    const res = await call(server, "GET", path, gus.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/accounts/{account_id}/in_collections", 200, res.body);
    assert.deepEqual(
      res.body.collections.map((c: Json) => c.id),
      [b.id, a.id],
    );
    const paged = await call(server, "GET", `${path}?limit=1&offset=1`, gus.token);
    assert.deepEqual(
      paged.body.collections.map((c: Json) => c.id),
      [a.id],
    );
    assert.equal((await call(server, "GET", path, ann.token)).status, 403);
    assert.equal((await call(server, "GET", path)).status, 401);

    // Revoking takes the account out of the list.
    const item = a.items[0];
    await call(server, "POST", `/api/v1/collections/${a.id}/items/${item.id}/revoke`, gus.token);
    assert.deepEqual(
      (await call(server, "GET", path, gus.token)).body.collections.map((c: Json) => c.id),
      [b.id],
    );
  });

  it("tells a local account it was featured, and its featured accounts of a new name", async () => {
    const ivy = await createUserWithToken(server, "ivy");
    await profile(ivy, { discoverable: true });
    const notifications = async () => {
      const res = await call(server, "GET", "/api/v1/notifications", ivy.token);
      assert.equal(res.status, 200);
      assertMatchesResponse("GET", "/api/v1/notifications", 200, res.body);
      return res.body as Json[];
    };
    const made = await create(ann, { name: "Friends", account_ids: [ivy.account.id] });
    const [added] = await notifications();
    assert.equal(added.type, "added_to_collection");
    assert.equal(added.account.id, ann.account.id);
    assert.equal(added.collection.id, made.id);
    assert.deepEqual(accountIds(added.collection.items), [ivy.account.id]);
    const typed = await call(
      server,
      "GET",
      "/api/v1/notifications?types[]=added_to_collection",
      ivy.token,
    );
    assert.deepEqual(
      typed.body.map((n: Json) => n.id),
      [added.id],
    );
    const grouped = await call(server, "GET", "/api/v2/notifications", ivy.token);
    assert.equal(grouped.status, 200);
    assertMatchesResponse("GET", "/api/v2/notifications", 200, grouped.body);
    assert.deepEqual(
      grouped.body.notification_groups.map((g: Json) => g.type),
      ["added_to_collection"],
    );

    // A new name is told; a new flag alone is not.
    const path = `/api/v1/collections/${made.id}`;
    await call(server, "PATCH", path, ann.token, { sensitive: true });
    assert.equal((await notifications()).length, 1);
    await call(server, "PATCH", path, ann.token, { name: "Best friends" });
    const [update] = await notifications();
    assert.deepEqual([update.type, update.collection.name], ["collection_update", "Best friends"]);

    // Featuring oneself tells no one; a deleted collection takes its notifications with it.
    await create(ivy, { name: "Me", account_ids: [ivy.account.id] });
    assert.equal((await notifications()).length, 2);
    await call(server, "DELETE", path, ann.token);
    assert.deepEqual(await notifications(), []);
  });

  it("enforces read:collections and write:collections, and a user token for writing", async () => {
    const reader = await createUserWithToken(server, "reader", ["read:collections"]);
    const writer = await createUserWithToken(server, "writer", ["write:collections"]);
    const other = await createUserWithToken(server, "other", ["read:statuses", "write:statuses"]);
    const made = await create(writer, { name: "Scoped" });
    assert.equal((await show(made.id, reader.token)).status, 200);
    assert.equal((await show(made.id, other.token)).status, 403);
    assert.equal(
      (await call(server, "POST", "/api/v1/collections", reader.token, { name: "No" })).status,
      403,
    );
    assert.equal(
      (await call(server, "POST", "/api/v1/collections", other.token, { name: "No" })).status,
      403,
    );
    assert.equal(
      (await call(server, "POST", "/api/v1/collections", undefined, { name: "No" })).status,
      401,
    );
    assert.equal(
      (await call(server, "GET", `/api/v1/accounts/${writer.account.id}/collections`, other.token))
        .status,
      403,
    );
  });

  it("caps the items of a collection and the collections of a user", async () => {
    const many = [];
    for (let i = 0; i < 26; i += 1) {
      const user = await createUserWithToken(server, `many${i}`);
      await profile(user, { discoverable: true });
      many.push(user.account.id);
    }
    const tooMany = await call(server, "POST", "/api/v1/collections", ann.token, {
      name: "Crowd",
      account_ids: many,
    });
    assert.equal(tooMany.status, 422);
    const crowd = await create(ann, { name: "Crowd", account_ids: many.slice(0, 25) });
    const extra = await call(server, "POST", `/api/v1/collections/${crowd.id}/items`, ann.token, {
      account_id: many[25],
    });
    assert.equal(extra.status, 422);

    const hal = await createUserWithToken(server, "hal");
    for (let i = 0; i < 10; i += 1) await create(hal, { name: `C${i}` });
    const eleventh = await call(server, "POST", "/api/v1/collections", hal.token, { name: "C10" });
    assert.equal(eleventh.status, 422);
    assert.equal(typeof eleventh.body.error, "string");
  });
});
