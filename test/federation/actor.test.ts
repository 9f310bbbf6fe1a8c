// The actor document of a local account, as Mastodon reads it when resolving a remote account.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { solidPng } from "../helpers/images.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call } from "../statuses/helpers.ts";
import { AP_ACCEPT, apDocument, apGet, type Json } from "./helpers.ts";

describe("ActivityPub actor", () => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice", ["read", "write"]);
    const form = new FormData();
    form.set("display_name", "Alice Liddell");
    form.set("note", "Down the #rabbit hole");
    form.set("locked", "true");
    form.set("fields_attributes[0][name]", "Home");
    form.set("fields_attributes[0][value]", "https://alice.example");
    const res = await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      body: form,
      token: alice.token,
    });
    assert.equal(res.status, 200, await res.text());
  });

  after(() => server.close());

  it("serves every field Mastodon reads", async () => {
    const actor = await apDocument(server, "/users/alice");
    const uri = `${server.url}/users/alice`;
    const contexts = JSON.stringify(actor["@context"]);
    assert.ok(contexts.includes("https://www.w3.org/ns/activitystreams"));
    assert.ok(contexts.includes("https://w3id.org/security/v1"));
    assert.equal(actor.id, uri);
    assert.equal(actor.type, "Person");
    assert.equal(actor.preferredUsername, "alice");
    assert.equal(actor.name, "Alice Liddell");
    assert.match(actor.summary, /Down the/);
    assert.match(actor.summary, /rabbit/);
    assert.equal(actor.url, `${server.url}/@alice`);
    assert.equal(actor.inbox, `${uri}/inbox`);
    assert.equal(actor.outbox, `${uri}/outbox`);
    assert.equal(actor.followers, `${uri}/followers`);
    assert.equal(actor.following, `${uri}/following`);
    assert.equal(actor.featured, `${uri}/collections/featured`);
    assert.equal(actor.featuredTags, `${uri}/collections/tags`);
    assert.equal(actor.endpoints.sharedInbox, `${server.url}/inbox`);
    assert.equal(actor.manuallyApprovesFollowers, true);
    assert.equal(typeof actor.discoverable, "boolean");
    assert.equal(typeof actor.indexable, "boolean");
    assert.equal(actor.published, `${alice.account.createdAt.slice(0, 10)}T00:00:00Z`);
    // JSON-LD compaction turns a one-item array into the item; Mastodon reads both.
    const fields = [actor.attachment].flat();
    assert.equal(fields.length, 1);
    assert.equal(fields[0].type, "PropertyValue");
    assert.equal(fields[0].name, "Home");
    assert.match(fields[0].value, /href="https:\/\/alice\.example"/);
    // No avatar or header uploaded: Mastodon leaves icon and image out.
    assert.equal(actor.icon, undefined);
    assert.equal(actor.image, undefined);

    // The RSA key Mastodon verifies HTTP Signatures with, owned by the actor.
    assert.equal(actor.publicKey.id, `${uri}#main-key`);
    assert.equal(actor.publicKey.owner, uri);
    assert.match(actor.publicKey.publicKeyPem, /^-----BEGIN PUBLIC KEY-----\n/);
    const { createPublicKey } = await import("node:crypto");
    assert.equal(createPublicKey(actor.publicKey.publicKeyPem).asymmetricKeyType, "rsa");
    // Both keys as Multikeys (FEP-521a): RSA and Ed25519.
    const methods = [actor.assertionMethod].flat();
    assert.equal(methods.length, 2);
    for (const method of methods) {
      assert.equal(method.type, "Multikey");
      assert.equal(method.controller, uri);
      assert.match(method.publicKeyMultibase, /^z/);
    }
    assert.ok(
      methods.some((m: { publicKeyMultibase: string }) => m.publicKeyMultibase.startsWith("z6Mk")),
    );
  });

  it("shows the avatar and header as images with their media types", async () => {
    const form = new FormData();
    form.set("avatar", new Blob([await solidPng(200, 200)], { type: "image/png" }), "a.png");
    form.set("header", new Blob([await solidPng(600, 200)], { type: "image/png" }), "h.png");
    const res = await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      body: form,
      token: alice.token,
    });
    const account: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(account));
    const actor = await apDocument(server, "/users/alice");
    assert.equal(actor.icon.type, "Image");
    assert.equal(actor.icon.url, account.avatar);
    assert.match(actor.icon.mediaType, /^image\//);
    assert.equal(actor.image.type, "Image");
    assert.equal(actor.image.url, account.header);
    const image = await fetch(actor.icon.url);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get("content-type"), actor.icon.mediaType);
  });

  it("answers for ld+json with the ActivityStreams profile too", async () => {
    const res = await apGet(
      server,
      "/users/alice",
      'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.id, `${server.url}/users/alice`);
  });

  it("shows bots as Service", async () => {
    const bot = await createUserWithToken(server, "robot", ["read", "write"]);
    const form = new FormData();
    form.set("bot", "true");
    const res = await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      body: form,
      token: bot.token,
    });
    assert.equal(res.status, 200);
    const actor = await apDocument(server, "/users/robot");
    assert.equal(actor.type, "Service");
    assert.equal(actor.preferredUsername, "robot");
  });

  it("answers 404 for an unknown user and leaves the client API alone", async () => {
    const res = await apGet(server, "/users/nobody");
    assert.equal(res.status, 404);
    const api = await call(server, "GET", "/api/v1/accounts/lookup?acct=alice");
    assert.equal(api.username, "alice");
  });

  it("keeps the same keys across a restart", async () => {
    const before = await apDocument(server, "/users/alice");
    await server.restart();
    const after = await apDocument(server, "/users/alice");
    assert.equal(after.publicKey.publicKeyPem, before.publicKey.publicKeyPem);
    assert.deepEqual(after.assertionMethod, before.assertionMethod);
  });

  it("gives two accounts different keys", async () => {
    const a = await apDocument(server, "/users/alice");
    const b = await apDocument(server, "/users/robot");
    assert.notEqual(a.publicKey.publicKeyPem, b.publicKey.publicKeyPem);
  });

  it("does not answer a browser with JSON", async () => {
    const res = await server.request("/users/alice", { headers: { accept: "text/html" } });
    assert.doesNotMatch(res.headers.get("content-type") ?? "", /activity\+json/);
    assert.notEqual(res.headers.get("content-type"), AP_ACCEPT);
  });
});
