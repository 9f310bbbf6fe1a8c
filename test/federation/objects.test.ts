// Statuses over ActivityPub at their ids: Note and Question documents as Mastodon reads them,
// addressing by visibility, the Create and Announce at …/activity, 410 Tombstones for deleted
// statuses, and private statuses served only to signed requests of those who may read them.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { postActivitiesOf } from "../../src/federation/status-documents.ts";
import { blockDomain } from "../../src/services/domain-blocks/domain-blocks.ts";
import { loadStatusViews } from "../../src/views/status-view.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { solidPng } from "../helpers/images.ts";
import { statusRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { upload } from "../media/api.ts";
import { post } from "../statuses/helpers.ts";
import { apDocument, apGet, type Json } from "./helpers.ts";
import { rememberPeerAccount, signedGet, storeFollow } from "./signed-get.ts";

const PUBLIC = ["as:Public", "https://www.w3.org/ns/activitystreams#Public"];

const list = (value: unknown): unknown[] => (value === undefined ? [] : [value].flat());
const isPublic = (value: unknown) => list(value).some((v) => PUBLIC.includes(v as string));

/** Neither the internal deleted flag nor the typed source may reach a peer, at any depth. */
function assertNoInternals(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) assertNoInternals(item);
  } else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      assert.ok(!["deleted_at", "deletedAt", "text", "source"].includes(key), `leaked ${key}`);
      if (key === "deleted") assert.equal((value as Json).type, "Tombstone", "leaked deleted");
      assertNoInternals(inner);
    }
  }
}

const pathOf = (uri: string) => new URL(uri).pathname;

describe("ActivityPub objects of statuses", () => {
  let server: TestServer;
  let peer: TestServer;
  let alice: TestUser;
  let carol: TestUser;
  let followers: string;

  before(async () => {
    const env = { WREN_ALLOW_PRIVATE_ADDRESSES: "true" };
    [server, peer] = await Promise.all([startTestServer(env), startTestServer(env)]);
    alice = await createUserWithToken(server, "alice", ["read", "write"]);
    carol = await createUserWithToken(server, "carol", ["read", "write"]);
    followers = `${server.url}/users/alice/followers`;
  });

  after(async () => {
    await Promise.all([server.close(), peer.close()]);
  });

  it("serves a public status as a Note with everything Mastodon reads", async () => {
    const parent = await post(server, alice, { status: "First" });
    const image = await upload(
      server,
      alice,
      { file: { bytes: await solidPng(64, 32), name: "g.png", type: "image/png" } },
      { description: "A green field", focus: "0.5,-0.25" },
    );
    const status = await post(server, alice, {
      status: "Hello @carol #Wren",
      in_reply_to_id: parent.id,
      language: "en",
      spoiler_text: "greeting",
      media_ids: [image.id],
    });
    const note = await apDocument(server, pathOf(status.uri));
    assertNoInternals(note);
    assert.equal(note.id, status.uri);
    assert.equal(note.type, "Note");
    assert.equal(note.url, status.url);
    assert.equal(note.attributedTo, `${server.url}/users/alice`);
    assert.equal(Date.parse(note.published), Date.parse(status.created_at));
    assert.equal(note.updated, undefined);
    assert.equal(note.inReplyTo, parent.uri);
    assert.ok(isPublic(note.to));
    assert.deepEqual(list(note.cc), [followers, `${server.url}/users/carol`]);
    assert.equal(note.content, status.content);
    assert.equal(note.contentMap.en, status.content);
    assert.equal(note.summary, "greeting");
    assert.equal(note.sensitive, true);

    const tags = list(note.tag) as Json[];
    const host = new URL(server.url).host;
    assert.deepEqual(
      tags.find((t) => t.type === "Mention"),
      { type: "Mention", href: `${server.url}/users/carol`, name: `@carol@${host}` },
    );
    assert.deepEqual(
      tags.find((t) => t.type === "Hashtag"),
      { type: "Hashtag", href: `${server.url}/tags/wren`, name: "#wren" },
    );

    const [attachment] = list(note.attachment) as Json[];
    assert.equal(attachment.type, "Document");
    assert.equal(attachment.mediaType, "image/png");
    assert.equal(attachment.url, status.media_attachments[0].url);
    assert.equal(attachment.name, "A green field");
    assert.equal(attachment.width, 64);
    assert.equal(attachment.height, 32);
    // Mastodon's extensions, defined in the attachment's own context.
    assert.equal(attachment.blurhash, image.blurhash);
    assert.equal(typeof attachment.blurhash, "string");
    assert.deepEqual(attachment.focalPoint, [0.5, -0.25]);
    assert.ok(JSON.stringify(note["@context"]).includes('"blurhash":"toot:blurhash"'));

    // The same names in the form Fedify delivers (compacted from the expanded document).
    const ctx = server.wren.ctx;
    const stored = await ctx.storage.statuses.get(status.id);
    assert.ok(stored);
    const [view] = await loadStatusViews(ctx, [stored], null);
    assert.ok(view);
    const [create] = await postActivitiesOf(ctx, [view]);
    assert.ok(create);
    const delivered: Json = await create.toJsonLd({ format: "compact" });
    const [sent] = list(delivered.object.attachment) as Json[];
    assert.equal(sent.blurhash, image.blurhash);
    assert.deepEqual(sent.focalPoint, [0.5, -0.25]);
    assert.equal(delivered.object.inReplyTo, parent.uri);
  });

  it("addresses unlisted statuses to followers with Public in cc, and shows edits", async () => {
    const status = await post(server, alice, { status: "Quietly", visibility: "unlisted" });
    const edit = await server.request(`/api/v1/statuses/${status.id}`, {
      method: "PUT",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "Quietly, edited" }),
    });
    const edited: Json = await edit.json();
    assert.equal(edit.status, 200, JSON.stringify(edited));
    const note = await apDocument(server, pathOf(status.uri));
    assert.deepEqual(list(note.to), [followers]);
    assert.ok(isPublic(note.cc));
    assert.match(note.content, /Quietly, edited/);
    assert.equal(Date.parse(note.updated), Date.parse(edited.edited_at));
  });

  it("serves a poll as a Question", async () => {
    const status = await post(server, alice, {
      status: "Tea or coffee?",
      poll: { options: ["Tea", "Coffee"], expires_in: 3600, multiple: true },
    });
    const vote = await server.request(`/api/v1/polls/${status.poll.id}/votes`, {
      method: "POST",
      token: carol.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ choices: [1] }),
    });
    assert.equal(vote.status, 200, await vote.text());
    const question = await apDocument(server, pathOf(status.uri));
    assertNoInternals(question);
    assert.equal(question.type, "Question");
    assert.equal(question.oneOf, undefined);
    const options = list(question.anyOf) as Json[];
    assert.deepEqual(
      options.map((o) => [o.type, o.name, o.replies.type, o.replies.totalItems]),
      [
        ["Note", "Tea", "Collection", 0],
        ["Note", "Coffee", "Collection", 1],
      ],
    );
    assert.equal(Date.parse(question.endTime), Date.parse(status.poll.expires_at));
    assert.equal(question.votersCount, 1);
    assert.equal(question.closed, undefined);
  });

  it("answers …/activity with the Create, and a boost's id with its Announce", async () => {
    const status = await post(server, carol, { status: "Boost me" });
    const create = await apDocument(server, `${pathOf(status.uri)}/activity`);
    assert.equal(create.type, "Create");
    assert.equal(create.id, `${status.uri}/activity`);
    assert.equal(create.actor, `${server.url}/users/carol`);
    assert.ok(isPublic(create.to));
    assert.equal(create.object.id, status.uri);
    assert.equal(create.object.type, "Note");

    const res = await server.request(`/api/v1/statuses/${status.id}/reblog`, {
      method: "POST",
      token: alice.token,
    });
    const boost: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(boost));
    assert.equal(boost.uri, `${server.url}/users/alice/statuses/${boost.id}/activity`);
    const announce = await apDocument(server, pathOf(boost.uri));
    assert.equal(announce.type, "Announce");
    assert.equal(announce.id, boost.uri);
    assert.equal(announce.actor, `${server.url}/users/alice`);
    assert.equal(announce.object, status.uri);
    assert.ok(isPublic(announce.to));
    assert.deepEqual(list(announce.cc), [followers, `${server.url}/users/carol`]);
    // A boost has no object of its own.
    const bare = await apGet(server, `/users/alice/statuses/${boost.id}`);
    assert.equal(bare.status, 404);
  });

  it("answers 410 with a Tombstone for a deleted status; browsers still get a page", async () => {
    const status = await post(server, alice, { status: "Soon gone" });
    const path = pathOf(status.uri);
    const del = await server.request(`/api/v1/statuses/${status.id}`, {
      method: "DELETE",
      token: alice.token,
    });
    assert.equal(del.status, 200);
    const gone = await apGet(server, path);
    assert.equal(gone.status, 410);
    assert.match(gone.type, /^application\/activity\+json/);
    assert.equal(gone.body.type, "Tombstone");
    assert.equal(gone.body.id, status.uri);
    assert.equal(gone.body.formerType, "as:Note");
    assert.equal(typeof gone.body.deleted, "string");
    assertNoInternals(gone.body);
    const activity = await apGet(server, `${path}/activity`);
    assert.equal(activity.status, 404);

    const page = await server.request(path, { headers: { accept: "text/html" } });
    assert.equal(page.status, 410);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    await page.text();
  });

  it("gives browsers the status page, not JSON", async () => {
    const status = await post(server, alice, { status: "For people" });
    const page = await server.request(pathOf(status.uri), { headers: { accept: "text/html" } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(await page.text(), /For people/);
  });

  it("answers 404 for unknown ids, other accounts' statuses and malformed ids", async () => {
    const status = await post(server, carol, { status: "Carol's" });
    for (const path of [
      `/users/alice/statuses/${status.id}`,
      "/users/alice/statuses/99999999999",
      "/users/alice/statuses/abc",
      `/users/nobody/statuses/${status.id}`,
    ]) {
      const res = await apGet(server, path);
      assert.equal(res.status, 404, path);
    }
  });

  describe("private and direct statuses", () => {
    let privatePath: string;
    let directPath: string;
    let deletedPrivatePath: string;

    before(async () => {
      // On the peer: bob (who follows alice) and dave (who does not); both known here.
      await createUserWithToken(peer, "bob", ["read"]);
      await createUserWithToken(peer, "dave", ["read"]);
      const bob = await rememberPeerAccount(server, peer, "bob");
      await rememberPeerAccount(server, peer, "dave");
      await storeFollow(server, bob, alice.account);

      const priv = await post(server, alice, { status: "Followers only", visibility: "private" });
      privatePath = pathOf(priv.uri);
      // A direct message to a remote account (stored as ingestion of a mention would make it).
      const direct = statusRecord(server, alice.account, {
        visibility: "direct",
        mentionIds: [bob.id],
        contentHtml: "<p>Just for bob</p>",
      });
      await server.wren.ctx.storage.statuses.put(direct);
      directPath = pathOf(direct.uri);
      const doomed = await post(server, alice, { status: "Private, gone", visibility: "private" });
      deletedPrivatePath = pathOf(doomed.uri);
      await server.request(`/api/v1/statuses/${doomed.id}`, {
        method: "DELETE",
        token: alice.token,
      });
    });

    it("are not served to unsigned requests", async () => {
      for (const path of [privatePath, directPath, `${privatePath}/activity`]) {
        const res = await apGet(server, path);
        assert.equal(res.status, 404, path);
      }
    });

    it("are served to a follower's signed request, addressed to followers", async () => {
      const res = await signedGet(peer, "bob", `${server.url}${privatePath}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.type, "Note");
      assert.deepEqual(list(res.body.to), [followers]);
      assert.ok(!isPublic(res.body.cc));
      const create = await signedGet(peer, "bob", `${server.url}${privatePath}/activity`);
      assert.equal(create.status, 200);
      assert.equal(create.body.type, "Create");
    });

    it("are served to a mentioned account's signed request, addressed to it only", async () => {
      const res = await signedGet(peer, "bob", `${server.url}${directPath}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(list(res.body.to), [`${peer.url}/users/bob`]);
      assert.deepEqual(list(res.body.cc), []);
      assert.equal(res.body.content, "<p>Just for bob</p>");
    });

    it("are not served to a signed request of anyone else", async () => {
      for (const path of [privatePath, directPath]) {
        const res = await signedGet(peer, "dave", `${server.url}${path}`);
        assert.equal(res.status, 404, path);
      }
    });

    it("are not revealed to have existed once deleted", async () => {
      const res = await signedGet(peer, "bob", `${server.url}${deletedPrivatePath}`);
      assert.equal(res.status, 404);
    });

    // Last: blocking the peer's domain changes what the tests above rely on.
    it("are not served to accounts of a blocked domain", async () => {
      await blockDomain(server.wren.ctx, new URL(peer.url).host);
      const res = await signedGet(peer, "bob", `${server.url}${directPath}`);
      assert.equal(res.status, 404);
    });
  });
});
