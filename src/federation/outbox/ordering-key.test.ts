// The ordering key of outgoing activities: the object they are about, looking through the
// activities that wrap another (Undo, Accept, Reject), without fetching anything.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Accept, Create, Delete, Follow, Like, Note, Reject, Tombstone, Undo } from "@fedify/vocab";
import { orderingKeyOf } from "./ordering-key.ts";

const NOTE = "https://wren.example/users/alice/statuses/1";
const ALICE = "https://wren.example/users/alice";
const BOB = "https://peer.example/users/bob";

describe("orderingKeyOf", () => {
  it("keys a Note's Create and Delete on the Note", async () => {
    const create = new Create({
      id: new URL(`${NOTE}/activity`),
      actor: new URL(ALICE),
      object: new Note({ id: new URL(NOTE), content: "hi" }),
    });
    const del = new Delete({
      id: new URL(`${NOTE}#delete`),
      actor: new URL(ALICE),
      object: new Tombstone({ id: new URL(NOTE) }),
    });
    assert.equal(await orderingKeyOf(create), NOTE);
    assert.equal(await orderingKeyOf(del), NOTE);
  });

  it("keys an Undo like what it undoes", async () => {
    const like = new Like({
      id: new URL(`${ALICE}#likes/1`),
      actor: new URL(ALICE),
      object: new URL(NOTE),
    });
    const undo = new Undo({
      id: new URL(`${ALICE}#likes/1/undo`),
      actor: new URL(ALICE),
      object: like,
    });
    assert.equal(await orderingKeyOf(like), NOTE);
    assert.equal(await orderingKeyOf(undo), NOTE);
  });

  it("keys the Accept and the Reject of a peer's Follow alike (cross-origin, embedded)", async () => {
    const follow = new Follow({
      id: new URL(`${BOB}#follow`),
      actor: new URL(BOB),
      object: new URL(ALICE),
    });
    const accept = new Accept({
      id: new URL(`${ALICE}#accepts/1`),
      actor: new URL(ALICE),
      object: follow,
    });
    const reject = new Reject({
      id: new URL(`${ALICE}#rejects/1`),
      actor: new URL(ALICE),
      object: follow,
    });
    assert.equal(await orderingKeyOf(accept), ALICE);
    assert.equal(await orderingKeyOf(reject), ALICE);
  });

  it("falls back to the wrapped activity's id when it is not embedded", async () => {
    const undo = new Undo({
      id: new URL(`${ALICE}#undo`),
      actor: new URL(ALICE),
      object: new URL(`${ALICE}#likes/2`),
    });
    assert.equal(await orderingKeyOf(undo), `${ALICE}#likes/2`);
  });
});
