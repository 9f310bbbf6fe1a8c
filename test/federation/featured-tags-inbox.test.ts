// A remote account's featured hashtags, from a peer publishing its featuredTags collection as
// Mastodon does (a Collection of Hashtags in Mastodon's JSON-LD context): Wren reads it on first
// contact and again on each actor Update. (Mastodon also announces a change with an Add or
// Remove of the Hashtag, which Fedify 2.3.6 refuses to parse, "Invalid type: as#Hashtag", so
// such changes arrive with the next Update or the daily refresh of the actor.)

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  AS_CONTEXT,
  type FakeActor,
  type FakePeer,
  type Json,
  PUBLIC,
  startFakePeer,
} from "./fake-peer.ts";
import { deliver, remoteAccount } from "./inbox-helpers.ts";

/** Mastodon's context names Hashtag (as:Hashtag), which the ActivityStreams context lacks. */
const CONTEXT = [AS_CONTEXT, { Hashtag: "as:Hashtag" }];

describe("inbox: featured tags of a remote account", () => {
  let server: TestServer;
  let peer: FakePeer;
  let mika: FakeActor;
  before(async () => {
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    peer = await startFakePeer();
    mika = await peer.actor("mika", { featuredTags: true });
  });
  after(async () => {
    await server.close();
    await peer.close();
  });

  const publish = (names: string[]) =>
    peer.put(new URL(mika.featuredTags as string).pathname, {
      "@context": CONTEXT,
      id: mika.featuredTags,
      type: "Collection",
      totalItems: names.length,
      items: names.map((name) => ({
        type: "Hashtag",
        href: `${mika.id}/tagged/${name.toLowerCase()}`,
        name: `#${name}`,
      })),
    });

  async function deliverCreate(): Promise<void> {
    const id = peer.newId("notes");
    const note = { id, type: "Note", attributedTo: mika.id, content: "<p>hi</p>", to: [PUBLIC] };
    const create = {
      "@context": CONTEXT,
      id: `${id}/activity`,
      type: "Create",
      actor: mika.id,
      to: [PUBLIC],
      object: note,
    };
    await deliver(server, peer, create);
  }

  async function deliverUpdate(): Promise<void> {
    const res = await fetch(mika.id, { headers: { accept: "application/activity+json" } });
    const person = (await res.json()) as Json;
    assert.equal(person.featuredTags, mika.featuredTags);
    const update = {
      "@context": person["@context"],
      id: peer.newId("activities"),
      type: "Update",
      actor: mika.id,
      to: [PUBLIC],
      object: person,
    };
    await deliver(server, peer, update);
  }

  async function featured(): Promise<string[]> {
    const account = await remoteAccount(server, mika);
    const res = await server.request(`/api/v1/accounts/${account.id}/featured_tags`);
    assert.equal(res.status, 200);
    return ((await res.json()) as Json[]).map((t) => t.name);
  }

  it("reads a Mastodon-style collection on first contact", async () => {
    publish(["Rust", "Go", "2024", "Rust"]);
    await deliverCreate();
    // The order published, names that cannot be hashtags and repeats left out.
    assert.deepEqual(await featured(), ["Rust", "Go"]);
  });

  it("reads it again when the actor's Update arrives", async () => {
    publish(["Zig", "go"]);
    await deliverUpdate();
    assert.deepEqual(await featured(), ["Zig", "go"]);
  });

  it("keeps the features when the collection cannot be read", async () => {
    peer.put(new URL(mika.featuredTags as string).pathname, null);
    await deliverUpdate();
    assert.deepEqual(await featured(), ["Zig", "go"]);
  });
});
