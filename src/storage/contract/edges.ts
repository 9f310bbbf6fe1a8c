// Storage contract: the edge stores (follows, blocks, favourites…). The same semantics are
// checked on every one of them, then that they are kept apart.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Edge } from "../../domain/relations.ts";
import type { EdgeStore, Storage } from "../ports.ts";
import { type ContractContext, ids, sorted } from "./context.ts";
import {
  makeBlock,
  makeEdge,
  makeFavourite,
  makeFeaturedTag,
  makeFollow,
  makeMute,
} from "./fixtures.ts";
import { makePollVote } from "./fixtures-features.ts";

type Fields = { id: string; accountId: string; targetId: string };

interface EdgeKind {
  name: keyof Storage;
  make(fields: Fields): Edge;
  /** A field to change when replacing an edge, so a replacement is visible. */
  vary(edge: Edge): Edge;
}

const withTime = (edge: Edge): Edge => ({ ...edge, createdAt: "2025-09-09T00:00:00.000Z" });

export const EDGE_KINDS: EdgeKind[] = [
  { name: "follows", make: makeFollow, vary: (e) => ({ ...e, notify: true }) as Edge },
  { name: "followRequests", make: makeFollow, vary: (e) => ({ ...e, showReblogs: false }) as Edge },
  { name: "blocks", make: makeBlock, vary: (e) => ({ ...e, uri: "https://x.test/b" }) as Edge },
  {
    name: "mutes",
    make: makeMute,
    vary: (e) => ({ ...e, expiresAt: "2026-01-01T00:00:00.000Z" }) as Edge,
  },
  {
    name: "favourites",
    make: makeFavourite,
    vary: (e) => ({ ...e, uri: "https://x.test/f" }) as Edge,
  },
  { name: "bookmarks", make: makeEdge, vary: withTime },
  { name: "pins", make: makeEdge, vary: withTime },
  { name: "conversationMutes", make: makeEdge, vary: withTime },
  {
    name: "accountNotes",
    make: (f) => ({ ...makeEdge(f), comment: "a note" }),
    vary: (e) => ({ ...e, comment: "another note" }) as Edge,
  },
  { name: "accountDomainBlocks", make: makeEdge, vary: withTime },
  { name: "notificationPermissions", make: makeEdge, vary: withTime },
  { name: "endorsements", make: makeEdge, vary: withTime },
  { name: "suggestionDismissals", make: makeEdge, vary: withTime },
  { name: "quotes", make: makeEdge, vary: withTime },
  {
    name: "pollVotes",
    make: makePollVote,
    vary: (e) => ({ ...e, choices: [1, 2] }) as Edge,
  },
  { name: "announcementDismissals", make: makeEdge, vary: withTime },
  { name: "listMembers", make: makeEdge, vary: withTime },
  { name: "tagFollows", make: makeEdge, vary: withTime },
  {
    name: "featuredTags",
    make: (fields) => makeFeaturedTag(fields),
    vary: (e) => ({ ...e, name: "Varied" }) as Edge,
  },
];

export function edgeStoreOf(storage: Storage, kind: EdgeKind): EdgeStore<Edge> {
  return storage[kind.name] as EdgeStore<Edge>;
}

export function edgeContract(t: ContractContext): void {
  for (const kind of EDGE_KINDS) {
    describe(`edges: ${kind.name}`, () => {
      const store = () => edgeStoreOf(t.storage, kind);
      const edge = (id: string, accountId: string, targetId: string) =>
        kind.make({ id, accountId, targetId });

      it("gets an edge by its (account, target) pair, in that direction only", async () => {
        const e = edge("10", "1", "2");
        await store().put(e);
        assert.deepEqual(await store().get("1", "2"), e);
        assert.equal(await store().get("2", "1"), undefined);
        assert.equal(await store().get("1", "3"), undefined);
      });

      it("keeps one edge per pair: a put replaces it, with the id it is given", async () => {
        await store().put(edge("10", "1", "2"));
        const newer = kind.vary(edge("20", "1", "2"));
        await store().put(newer);
        assert.deepEqual(await store().get("1", "2"), newer);
        assert.deepEqual(ids(await store().listFrom("1", { limit: 40 })), ["20"]);
        assert.deepEqual(ids(await store().listTo("2", { limit: 40 })), ["20"]);
        assert.equal(await store().countFrom("1"), 1);
        assert.equal(await store().countTo("2"), 1);

        // A smaller id is kept as given too; a put of the same id replaces in place.
        await store().put(edge("5", "1", "2"));
        assert.equal((await store().get("1", "2"))?.id, "5");
        const varied = kind.vary(edge("5", "1", "2"));
        await store().put(varied);
        assert.deepEqual(await store().get("1", "2"), varied);
        assert.equal(await store().countFrom("1"), 1);
      });

      it("an id put again with another pair moves the edge there", async () => {
        await store().put(edge("10", "1", "2"));
        await store().put(edge("10", "1", "3"));
        assert.equal(await store().get("1", "2"), undefined);
        assert.equal((await store().get("1", "3"))?.id, "10");
        assert.deepEqual(await store().allTargetsFrom("1"), ["3"]);
        assert.equal(await store().countTo("2"), 0);
      });

      it("delete removes the pair's edge and says whether there was one", async () => {
        await store().put(edge("10", "1", "2"));
        await store().put(edge("11", "1", "3"));
        assert.equal(await store().delete("1", "2"), true);
        assert.equal(await store().delete("1", "2"), false);
        assert.equal(await store().delete("2", "1"), false);
        assert.equal(await store().get("1", "2"), undefined);
        assert.deepEqual(ids(await store().listFrom("1", { limit: 40 })), ["11"]);
        assert.deepEqual(await store().listTo("2", { limit: 40 }), []);
        assert.equal(await store().countFrom("1"), 1);
        assert.equal(await store().countTo("2"), 0);
      });

      it("lists from an account and to a target newest first by edge id, paged", async () => {
        // Edge ids deliberately out of step with target ids.
        const puts = [
          edge("30", "1", "a"),
          edge("10", "1", "b"),
          edge("50", "1", "c"),
          edge("20", "1", "d"),
          edge("40", "1", "e"),
          edge("35", "2", "c"),
          edge("45", "3", "c"),
        ];
        await Promise.all(puts.map((e) => store().put(e)));
        const from = async (page: Parameters<EdgeStore<Edge>["listFrom"]>[1]) =>
          ids(await store().listFrom("1", page));
        assert.deepEqual(await from({ limit: 40 }), ["50", "40", "30", "20", "10"]);
        assert.deepEqual(await from({ limit: 2 }), ["50", "40"]);
        assert.deepEqual(await from({ limit: 2, maxId: "40" }), ["30", "20"]);
        assert.deepEqual(await from({ limit: 2, sinceId: "20" }), ["50", "40"]);
        assert.deepEqual(await from({ limit: 2, minId: "20" }), ["40", "30"]);
        assert.deepEqual(ids(await store().listTo("c", { limit: 40 })), ["50", "45", "35"]);
        assert.deepEqual(ids(await store().listTo("c", { limit: 1, maxId: "50" })), ["45"]);
        assert.deepEqual(await store().listFrom("9", { limit: 40 }), []);
        assert.equal(await store().countFrom("1"), 5);
        assert.equal(await store().countTo("c"), 3);
        assert.equal(await store().countTo("z"), 0);
        assert.deepEqual(
          await store().countFromMany(["1", "9"]),
          new Map([
            ["1", 5],
            ["9", 0],
          ]),
        );
        assert.deepEqual(
          await store().countToMany(["c", "z"]),
          new Map([
            ["c", 3],
            ["z", 0],
          ]),
        );
        assert.deepEqual(await store().allTargetsFrom("1"), ["c", "e", "a", "d", "b"]);
        assert.deepEqual(await store().allTargetsFrom("9"), []);
      });

      it("finds edges in batches, keyed by the other side", async () => {
        await store().put(edge("10", "1", "2"));
        await store().put(edge("11", "1", "3"));
        await store().put(edge("12", "4", "3"));
        const from = await store().findFrom("1", ["2", "3", "404", "1"]);
        assert.deepEqual(sorted([...from.keys()]), ["2", "3"]);
        assert.equal(from.get("3")?.id, "11");
        const to = await store().findTo("3", ["1", "4", "404"]);
        assert.deepEqual(sorted([...to.keys()]), ["1", "4"]);
        assert.equal(to.get("4")?.id, "12");
        assert.equal((await store().findFrom("1", [])).size, 0);
      });

      it("settles concurrent changes of one pair in call order", async () => {
        await Promise.all(["10", "30", "20"].map((id) => store().put(edge(id, "1", "2"))));
        assert.equal((await store().get("1", "2"))?.id, "20");
        assert.equal(await store().countFrom("1"), 1);
        assert.equal(await store().countTo("2"), 1);
        const deleted = await Promise.all([1, 2, 3].map(() => store().delete("1", "2")));
        assert.deepEqual(deleted.filter(Boolean), [true]);
        assert.equal(await store().countFrom("1"), 0);
        const again = await t.reopen();
        assert.equal(await edgeStoreOf(again, kind).get("1", "2"), undefined);
      });
    });
  }

  it("edges: each kind is a store of its own", async () => {
    await Promise.all(
      EDGE_KINDS.map((kind, i) =>
        edgeStoreOf(t.storage, kind).put(
          kind.make({ id: String(10 + i), accountId: "1", targetId: "2" }),
        ),
      ),
    );
    for (const [i, kind] of EDGE_KINDS.entries()) {
      assert.equal((await edgeStoreOf(t.storage, kind).get("1", "2"))?.id, String(10 + i));
    }
    await t.storage.follows.delete("1", "2");
    assert.equal(await t.storage.follows.get("1", "2"), undefined);
    assert.equal((await t.storage.blocks.get("1", "2"))?.id, "12");
  });
}
