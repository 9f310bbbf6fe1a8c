// KvStore.version across processes (migration 0040): another process's write of an IP block
// moves it, so the IP-block list each process keeps (services/address-blocks/ip-blocks.ts) is
// read again; this process's own writes under the prefix move it too, and a post's writes to
// other tables, or this process's preview card, do not (it is what lets the list stay kept under
// a stream of posts).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

const IP_BLOCKS = ["wren", "ipBlock"];

describe("the key–value store's version", () => {
  const db = twoProcessesOnOneDatabase();

  it("moves in another process when an IP block is written, added or removed", async () => {
    const { a, b } = db;
    const key = ["wren", "ipBlock", "1"];
    const seen = b.kv.version(IP_BLOCKS);
    await a.kv.set({ key, value: { id: "1", ip: "10.0.0.0/8" }, expiresAt: null });
    await eventually(
      async () => b.kv.version(IP_BLOCKS),
      (version) => version > seen,
    );
    const later = b.kv.version(IP_BLOCKS);
    await a.kv.delete(key);
    await eventually(
      async () => b.kv.version(IP_BLOCKS),
      (version) => version > later,
    );
  });

  it("moves with this process's own writes under it, not with a status put or a card", async () => {
    const { a } = db;
    const before = a.kv.version(IP_BLOCKS);
    await a.statuses.put(makeStatus({ id: "100", accountId: "1" }));
    assert.equal(a.kv.version(IP_BLOCKS), before);
    await a.kv.set({ key: ["wren", "statusCard", "100"], value: "x", expiresAt: null });
    assert.equal(a.kv.version(IP_BLOCKS), before);
    await a.kv.set({ key: [...IP_BLOCKS, "2"], value: { id: "2" }, expiresAt: null });
    assert.ok(a.kv.version(IP_BLOCKS) > before);
  });
});
