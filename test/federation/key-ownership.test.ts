// A key is trusted only when its owner's own document lists it (issue 14, item 1; the class of
// CVE-2024-23832). A hostile server publishes key documents that claim to belong to trent, an
// actor of another server whose own document lists only his real key, and signs with them:
// inbox POSTs (HTTP signatures, and Linked Data signatures in the body) are answered 401 and
// change nothing, and signed GETs of followers-only posts are not served to the forged viewer.
// Real HTTP throughout: a real Wren server and two loopback peers with real keys.

import assert from "node:assert/strict";
import type { webcrypto } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { generateCryptoKeyPair, signJsonLd, signRequest } from "@fedify/fedify";
import { CryptographicKey, Person } from "@fedify/vocab";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  AS_CONTEXT,
  type FakeActor,
  type FakePeer,
  type Json,
  startFakePeer,
} from "./fake-peer.ts";
import { AP_ACCEPT } from "./helpers.ts";
import { activity, api, createNote, deliver, settle, statusByUri } from "./inbox-helpers.ts";

type CryptoKeyPair = webcrypto.CryptoKeyPair;

/** A key document at `keyId` claiming `owner`, as a hostile server publishes it. */
async function keyDocument(keyId: string, owner: string, keys: CryptoKeyPair): Promise<Json> {
  const key = new CryptographicKey({
    id: new URL(keyId),
    owner: new URL(owner),
    publicKey: keys.publicKey,
  });
  return key.toJsonLd({ format: "compact" });
}

/** An actor document of `id` listing a key that claims to belong to `owner`. */
async function actorListingForeignKey(
  id: string,
  keyId: string,
  owner: string,
  keys: CryptoKeyPair,
): Promise<Json> {
  const person = new Person({
    id: new URL(id),
    preferredUsername: "sybil",
    inbox: new URL(`${id}/inbox`),
    publicKey: new CryptographicKey({
      id: new URL(keyId),
      owner: new URL(owner),
      publicKey: keys.publicKey,
    }),
  });
  return person.toJsonLd({ format: "compact" });
}

describe("key ownership: a key counts only as listed by its owner", () => {
  let server: TestServer;
  let home: FakePeer; // trent's server
  let evil: FakePeer; // the hostile server
  let alice: TestUser;
  let trent: FakeActor;
  let sybilKeys: CryptoKeyPair;

  before(async () => {
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    [home, evil] = await Promise.all([startFakePeer(), startFakePeer()]);
    alice = await createUserWithToken(server, "alice", ["read", "write", "follow"]);
    trent = await home.actor("trent");
    // Trent really follows alice: his account is known here, and he may read her private posts.
    await deliver(server, home, activity(home, trent, "Follow", { object: alice.account.uri }));
    sybilKeys = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  });

  after(async () => {
    await server.close();
    await Promise.all([home.close(), evil.close()]);
  });

  const sharedInbox = () => `${server.url}/inbox`;

  /** A note as trent, mentioning alice (it would be stored and notify her if accepted). */
  const noteAsTrent = () =>
    createNote(home, trent, { cc: [alice.account.uri], content: "<p>Forged words</p>" });

  /** Sends `create` signed with sybil's key under `keyId`; expects 401 and nothing stored. */
  const refused = async (keyId: string, create: Json, note: Json, inbox = sharedInbox()) => {
    const res = await home.send(inbox, create, { keyId, privateKey: sybilKeys.privateKey });
    assert.equal(res.status, 401, await res.text());
    await settle(server);
    assert.equal(await statusByUri(server, note.id), undefined, "nothing is stored");
  };

  it("refuses a key on another server whose key document claims trent as owner", async () => {
    const keyId = `${evil.url}/actor/sybil#main-key`;
    evil.put("/actor/sybil", await keyDocument(keyId, trent.id, sybilKeys));
    const { create, note } = noteAsTrent();
    await refused(keyId, create, note);
  });

  it("refuses the same forgery at the inboxes' trailing-slash paths, which also route", async () => {
    const keyId = `${evil.url}/actor/sybil#main-key`;
    evil.put("/actor/sybil", await keyDocument(keyId, trent.id, sybilKeys));
    for (const inbox of [`${sharedInbox()}/`, `${alice.account.uri}/inbox/`]) {
      const { create, note } = noteAsTrent();
      await refused(keyId, create, note, inbox);
    }
  });

  it("refuses a key listed by another actor's document that claims trent as owner", async () => {
    const id = `${evil.url}/users/sybil`;
    const keyId = `${id}#main-key`;
    evil.put("/users/sybil", await actorListingForeignKey(id, keyId, trent.id, sybilKeys));
    const { create, note } = noteAsTrent();
    await refused(keyId, create, note);
  });

  it("refuses a key on trent's own server that trent's document does not list", async () => {
    const keyId = `${home.url}/keys/rogue#main-key`;
    home.put("/keys/rogue", await keyDocument(keyId, trent.id, sybilKeys));
    const { create, note } = noteAsTrent();
    await refused(keyId, create, note);
  });

  it("refuses a forwarded activity whose body signature uses such a key", async () => {
    const keyId = `${evil.url}/ld/sybil#main-key`;
    evil.put("/ld/sybil", await keyDocument(keyId, trent.id, sybilKeys));
    // The forwarding server (evil's honest actor) signs the request; the body claims trent.
    const forwarder = await evil.actor("forwarder");
    const { create, note } = noteAsTrent();
    const signed = await signJsonLd(create, sybilKeys.privateKey, new URL(keyId), {});
    const res = await evil.send(sharedInbox(), signed, { signer: forwarder });
    assert.equal(res.status, 401, await res.text());
    await settle(server);
    assert.equal(await statusByUri(server, note.id), undefined);
  });

  it("accepts an activity forwarded by another server with trent's own body signature", async () => {
    const forwarder = await evil.actor("relay");
    const { create, note } = noteAsTrent();
    const signed = await signJsonLd(create, trent.keys.privateKey, new URL(trent.keyId), {});
    const res = await evil.send(sharedInbox(), signed, { signer: forwarder });
    assert.equal(res.status, 202, await res.text());
    await settle(server);
    assert.ok(await statusByUri(server, note.id));
  });

  it("still accepts trent's own key", async () => {
    const { create, note } = noteAsTrent();
    await deliver(server, home, create);
    assert.ok(await statusByUri(server, note.id));
  });

  it("drops an activity whose context makes its parsed actor another than its signer", async () => {
    // Signed by an honest actor of evil, named as the written `actor`; the context sends that
    // term elsewhere and another one to as:actor, so the activity parses as trent's.
    const mallory = await evil.actor("mallory");
    const { create, note } = noteAsTrent();
    const disguised = {
      ...create,
      "@context": [
        AS_CONTEXT,
        { actor: "https://evil.example/ns#signer", by: { "@id": "as:actor", "@type": "@id" } },
      ],
      actor: mallory.id,
      by: trent.id,
    };
    const res = await evil.send(sharedInbox(), disguised, { signer: mallory });
    // Queued once the signature verifies (inbox/accept.ts), then dropped by the listener.
    assert.ok(res.status === 202 || res.status === 401, `${res.status} ${await res.text()}`);
    await settle(server);
    assert.equal(await statusByUri(server, note.id), undefined, "nothing is stored");
  });

  describe("signed GETs", () => {
    let privateUrl: string;

    before(async () => {
      const status = await api(server, "POST", "/api/v1/statuses", alice.token, {
        status: "For my followers",
        visibility: "private",
      });
      privateUrl = status.uri;
    });

    const signedGet = async (keyId: string, privateKey: webcrypto.CryptoKey) => {
      const request = await signRequest(
        new Request(privateUrl, { headers: { accept: AP_ACCEPT } }),
        privateKey,
        new URL(keyId),
      );
      const res = await fetch(request);
      return { status: res.status, body: await res.text() };
    };

    it("serves a followers-only post to trent signing with his own key", async () => {
      const res = await signedGet(trent.keyId, trent.keys.privateKey);
      assert.equal(res.status, 200, res.body);
    });

    it("does not serve it to a key that only claims to be trent's", async () => {
      const keyId = `${evil.url}/get/sybil#main-key`;
      evil.put("/get/sybil", await keyDocument(keyId, trent.id, sybilKeys));
      const res = await signedGet(keyId, sybilKeys.privateKey);
      assert.equal(res.status, 404, res.body);
      assert.doesNotMatch(res.body, /For my followers/);
    });
  });
});
