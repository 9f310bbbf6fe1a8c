// Storage contract: the key–value store behind Fedify (caches, key pairs, idempotence marks).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KvEntry } from "../ports.ts";
import type { ContractContext } from "./context.ts";

const entry = (key: string[], value: unknown, expiresAt: string | null = null): KvEntry => ({
  key,
  value,
  expiresAt,
});

export function kvContract(t: ContractContext): void {
  describe("key-value store", () => {
    const kv = () => t.storage.kv;

    it("stores, replaces and deletes values under keys of any text", async () => {
      const url = ["_fedify", "remoteDocument", "https://remote.example/users/a?x=1#main-key"];
      await kv().set(entry(url, { "@context": "x", n: [1, 2] }));
      await kv().set(entry(["a"], "short"));
      assert.deepEqual(await kv().get(url), entry(url, { "@context": "x", n: [1, 2] }));
      assert.deepEqual(await kv().get(["a"]), entry(["a"], "short"));
      assert.equal(await kv().get(["a", "b"]), undefined);
      assert.equal(await kv().get(["_fedify", "remoteDocument"]), undefined);

      await kv().set(entry(["a"], 42, "2030-01-01T00:00:00.000Z"));
      assert.deepEqual(await kv().get(["a"]), entry(["a"], 42, "2030-01-01T00:00:00.000Z"));
      assert.equal(await kv().delete(["a"]), true);
      assert.equal(await kv().delete(["a"]), false);
      assert.equal(await kv().get(["a"]), undefined);
    });

    it("moves a prefix's version with writes under it, not with other families' writes", async () => {
      const blocks = ["wren", "ipBlock"];
      const at = () => kv().version(blocks);
      let seen = at();
      // Another family (a preview card, the activity marks) and a post leave it.
      await kv().set(entry(["wren", "statusCard", "1"], "https://card.example/"));
      await kv().set(entry(["wren", "activity", "2026-11-27"], 1));
      assert.equal(at(), seen);
      // Every kind of write under it moves it: set, compare-and-set, delete, a prune.
      const moved = async (write: () => Promise<unknown>) => {
        await write();
        assert.ok(at() > seen);
        seen = at();
      };
      await moved(() => kv().set(entry([...blocks, "1"], { id: "1" }, "2025-01-01T00:00:00.000Z")));
      await moved(() =>
        kv().compareAndSet(
          undefined,
          entry([...blocks, "2"], { id: "2" }),
          "2025-01-01T00:00:00.000Z",
        ),
      );
      await moved(() => kv().delete([...blocks, "2"]));
      await moved(() => kv().pruneExpired("2025-01-02T00:00:00.000Z"));
      // A prefix of one segment moves with any write.
      const whole = kv().version(["wren"]);
      await kv().set(entry(["wren", "statusCard", "2"], "https://card.example/2"));
      assert.ok(kv().version(["wren"]) > whole);
      assert.equal(at(), seen);
    });

    it("reads many keys at once, in the order asked, with the missing ones undefined", async () => {
      const long = ["wren", "statusCard", "https://remote.example/a?b=c,d"];
      await kv().set(entry(long, "https://link.example/"));
      await kv().set(entry(["wren", "statusCard"], { prefix: true }, "2030-01-01T00:00:00.000Z"));
      await kv().set(entry(["x"], [1, "two"]));
      assert.deepEqual(await kv().getMany([]), []);
      assert.deepEqual(
        await kv().getMany([["x"], ["absent"], long, ["wren", "statusCard"], ["x"], ["wren"]]),
        [
          entry(["x"], [1, "two"]),
          undefined,
          entry(long, "https://link.example/"),
          entry(["wren", "statusCard"], { prefix: true }, "2030-01-01T00:00:00.000Z"),
          entry(["x"], [1, "two"]),
          undefined,
        ],
      );
    });

    it("does not let a caller's object change the stored value", async () => {
      const value = { list: [1] };
      await kv().set(entry(["k"], value));
      value.list.push(2);
      const read = await kv().get(["k"]);
      assert.ok(read);
      assert.deepEqual(read.value, { list: [1] });
      (read.value as { list: number[] }).list.push(3);
      assert.deepEqual((await kv().get(["k"]))?.value, { list: [1] });
    });

    it("lists entries by key prefix, segment-wise, in key order", async () => {
      await kv().set(entry(["p", "b"], 2));
      await kv().set(entry(["p", "a", "x"], 1));
      await kv().set(entry(["pq", "a"], 3));
      await kv().set(entry(["q"], 4));
      const keys = (prefix: string[]) =>
        kv()
          .list(prefix)
          .then((es) => es.map((e) => e.key));
      assert.deepEqual(await keys(["p"]), [
        ["p", "a", "x"],
        ["p", "b"],
      ]);
      assert.deepEqual(await keys(["p", "a"]), [["p", "a", "x"]]);
      assert.deepEqual(await keys([]), [["p", "a", "x"], ["p", "b"], ["pq", "a"], ["q"]]);
      assert.deepEqual(await keys(["r"]), []);
      assert.deepEqual(await keys(["p", "b"]), [["p", "b"]]);
      // Lists of two segments or more follow changes of their entries (json-file files them so).
      await kv().delete(["p", "a", "x"]);
      await kv().set(entry(["p", "a", "y"], 5));
      assert.deepEqual(await keys(["p", "a"]), [["p", "a", "y"]]);
      assert.deepEqual(await keys(["p", "a", "x"]), []);
    });

    it("compare-and-set writes only over the expected value, one winner under contention", async () => {
      const now = "2025-01-01T00:00:00.000Z";
      assert.equal(await kv().compareAndSet(undefined, entry(["c"], 1), now), true);
      assert.equal(await kv().compareAndSet(undefined, entry(["c"], 2), now), false);
      assert.equal(await kv().compareAndSet(5, entry(["c"], 2), now), false);
      assert.deepEqual((await kv().get(["c"]))?.value, 1);
      assert.equal(await kv().compareAndSet(1, entry(["c"], { v: 2 }), now), true);
      assert.deepEqual((await kv().get(["c"]))?.value, { v: 2 });

      const racers = await Promise.all(
        [10, 11, 12, 13].map((n) => kv().compareAndSet({ v: 2 }, entry(["c"], n), now)),
      );
      assert.equal(racers.filter(Boolean).length, 1);
    });

    it("compare-and-set compares values, not the order of their keys", async () => {
      const now = "2025-01-01T00:00:00.000Z";
      const written = {
        state: "half-open",
        failures: ["t1"],
        opened: "t2",
        version: 1,
        halfOpened: "t3",
      };
      await kv().set(entry(["s"], written));
      // The same value rebuilt by a reader, its keys in another order: the write goes through.
      const reread = {
        state: "half-open",
        failures: ["t1"],
        opened: "t2",
        halfOpened: "t3",
        version: 1,
      };
      assert.equal(await kv().compareAndSet(reread, entry(["s"], { state: "closed" }), now), true);
      assert.deepEqual((await kv().get(["s"]))?.value, { state: "closed" });
      // A different value (or the same keys in a list, where order counts) does not.
      assert.equal(await kv().compareAndSet({ state: "open" }, entry(["s"], 1), now), false);
      await kv().set(entry(["l"], ["a", "b"]));
      assert.equal(await kv().compareAndSet(["b", "a"], entry(["l"], 1), now), false);
      assert.deepEqual((await kv().get(["l"]))?.value, ["a", "b"]);
      // Fedify closes a circuit by setting its state to undefined: the entry goes.
      assert.equal(await kv().compareAndSet(["a", "b"], entry(["l"], undefined), now), true);
      assert.equal(await kv().get(["l"]), undefined);
      assert.deepEqual(await kv().list(["l"]), []);
    });

    it("treats an expired entry as absent for compare-and-set, and prunes expired entries", async () => {
      await kv().set(entry(["old"], "x", "2025-01-01T00:00:00.000Z"));
      await kv().set(entry(["live"], "y", "2025-01-03T00:00:00.000Z"));
      await kv().set(entry(["forever"], "z"));
      const later = "2025-01-02T00:00:00.000Z";
      assert.equal(await kv().compareAndSet(undefined, entry(["live"], "n"), later), false);
      assert.equal(await kv().pruneExpired(later), 1);
      assert.equal(await kv().get(["old"]), undefined);
      assert.deepEqual((await kv().get(["live"]))?.value, "y");
      assert.deepEqual((await kv().get(["forever"]))?.value, "z");

      await kv().set(entry(["old"], "x", "2025-01-01T00:00:00.000Z"));
      assert.equal(await kv().compareAndSet(undefined, entry(["old"], "new"), later), true);
      assert.deepEqual(await kv().get(["old"]), entry(["old"], "new"));
    });

    it("compare-and-set from absent to absent succeeds unless a live entry is there", async () => {
      const now = "2025-01-02T00:00:00.000Z";
      assert.equal(await kv().compareAndSet(undefined, entry(["none"], undefined), now), true);
      await kv().set(entry(["lapsed"], 1, "2025-01-01T00:00:00.000Z"));
      assert.equal(await kv().compareAndSet(undefined, entry(["lapsed"], undefined), now), true);
      assert.equal(await kv().get(["lapsed"]), undefined);
      await kv().set(entry(["live"], 1));
      assert.equal(await kv().compareAndSet(undefined, entry(["live"], undefined), now), false);
      assert.deepEqual((await kv().get(["live"]))?.value, 1);
    });

    it("keeps entries across a reopen", async () => {
      await kv().set(entry(["wren", "keys", "1"], { rsa: { kty: "RSA" } }));
      await kv().set(entry(["gone"], 1));
      await kv().delete(["gone"]);
      await t.reopen();
      assert.deepEqual(
        await kv().get(["wren", "keys", "1"]),
        entry(["wren", "keys", "1"], { rsa: { kty: "RSA" } }),
      );
      assert.equal(await kv().get(["gone"]), undefined);
      assert.deepEqual(
        (await kv().list(["wren", "keys"])).map((e) => e.key),
        [["wren", "keys", "1"]],
      );
    });
  });
}
