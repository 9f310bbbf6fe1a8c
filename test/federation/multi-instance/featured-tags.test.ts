// Featured hashtags between two Wren instances: B publishes bob's featured tags as Hashtag
// objects in his actor's featuredTags collection (served to signed fetches like every
// collection); A reads that collection when it learns of bob and again when bob's profile
// Update arrives after a change, and shows them in GET /api/v1/accounts/:id/featured_tags.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Json } from "../../graph/helpers.ts";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  handle,
  type Instance,
  resolveAccount,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";
import { assertMatchesResponse } from "../../helpers/openapi.ts";
import { signedGet } from "../signed-get.ts";

describe("featured hashtags across servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
    await api(b, bob.token, "POST", "/api/v1/statuses", { status: "Look! #Birds" });
    await api(b, bob.token, "POST", "/api/v1/featured_tags", { name: "Birds" });
    await api(b, bob.token, "POST", "/api/v1/featured_tags", { name: "Cats" });
  });
  after(() => federation.close());

  const featuredOnA = async (id: string): Promise<Json[]> => {
    const path = `/api/v1/accounts/${id}/featured_tags`;
    const list = await api(a, alice.token, "GET", path);
    assertMatchesResponse("GET", path, 200, list);
    return list;
  };

  it("serves the featuredTags collection of Hashtags to a signed fetch from a peer", async () => {
    const actor = await signedGet(a, "alice", `${b.url}/users/bob`);
    assert.equal(actor.status, 200);
    assert.equal(actor.body.featuredTags, `${b.url}/users/bob/collections/tags`);
    const collection = await signedGet(a, "alice", actor.body.featuredTags);
    assert.equal(collection.status, 200, JSON.stringify(collection.body));
    assert.equal(collection.body.totalItems, 2);
    const items = collection.body.items ?? collection.body.orderedItems;
    assert.deepEqual(
      items.map((i: Json) => [i.type, i.name, i.href]),
      [
        ["Hashtag", "#Cats", `${b.url}/@bob/tagged/cats`],
        ["Hashtag", "#Birds", `${b.url}/@bob/tagged/birds`],
      ],
    );
    const missing = await signedGet(a, "alice", `${b.url}/users/nobody/collections/tags`);
    assert.equal(missing.status, 404);
  });

  it("reads a remote account's featured tags when resolving it", async () => {
    const bobOnA = await resolveAccount(a, alice.token, handle(b, "bob"));
    const list = await featuredOnA(bobOnA.id);
    assert.deepEqual(
      list.map((t) => t.name),
      ["Cats", "Birds"],
    );
    // The link to bob's tagged posts is the one B gives for its own account.
    const onB = await api(b, bob.token, "GET", "/api/v1/featured_tags");
    const birdsOnB = onB.find((t: Json) => t.name === "Birds");
    assert.equal(list[1].url, birdsOnB.url);
    assert.notEqual(list[1].id, birdsOnB.id, "A's own record, with A's id");
  });

  it("follows bob's changes through his profile Update", async () => {
    const bobOnA = await followRemote(a, alice, b, bob);
    const cats = (await api(b, bob.token, "GET", "/api/v1/featured_tags")).find(
      (t: Json) => t.name === "Cats",
    );
    await api(b, bob.token, "DELETE", `/api/v1/featured_tags/${cats.id}`);
    await api(b, bob.token, "POST", "/api/v1/tags/Fish/feature");
    await eventually(async () => {
      const list = await featuredOnA(bobOnA.id);
      assert.deepEqual(
        list.map((t) => t.name),
        ["Fish", "Birds"],
      );
    });
  });
});
