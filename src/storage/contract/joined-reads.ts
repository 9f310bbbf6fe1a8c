// Storage contract: the joined reads answer exactly what asking the stores one by one answers
// (ports.ts, JoinedReads), every backend alike; and the batched user and app lookups.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EdgeQuestion, EdgeKind as EdgeStoreName } from "../ports.ts";
import type { ContractContext } from "./context.ts";
import { EDGE_KINDS, edgeStoreOf } from "./edges.ts";
import {
  makeAccount,
  makeApp,
  makeBlock,
  makeEdge,
  makeFavourite,
  makeFollow,
  makeStatus,
  makeToken,
  makeUser,
} from "./fixtures.ts";

export function joinedReadsContract(t: ContractContext): void {
  describe("joined reads", () => {
    it("gets many users and apps at once, leaving out the missing", async () => {
      await t.storage.users.put(makeUser({ accountId: "1" }));
      await t.storage.users.put(makeUser({ accountId: "2", role: "admin" }));
      await t.storage.apps.put(makeApp({ id: "5", name: "Five" }));
      const users = await t.storage.users.getMany(["2", "1", "404", "007", "2"]);
      assert.deepEqual([...users.keys()].sort(), ["1", "2"]);
      assert.equal(users.get("2")?.role, "admin");
      assert.deepEqual(await t.storage.users.getMany([]), new Map());
      const apps = await t.storage.apps.getMany(["5", "6", "99999999999999999999"]);
      assert.deepEqual([...apps.keys()], ["5"]);
      assert.equal(apps.get("5")?.name, "Five");
    });

    it("finds a token's holder: the token, its app, account and user", async () => {
      await t.storage.accounts.put(makeAccount({ id: "1" }));
      await t.storage.users.put(makeUser({ accountId: "1", locale: "fr" }));
      await t.storage.apps.put(makeApp({ id: "7" }));
      await t.storage.tokens.put(makeToken({ id: "10", tokenHash: "user", appId: "7" }));
      const holder = await t.storage.joined.tokenHolder("user");
      assert.equal(holder?.token.id, "10");
      assert.equal(holder?.app?.id, "7");
      assert.equal(holder?.account?.id, "1");
      assert.equal(holder?.user?.locale, "fr");
      // An app-only token has no account; missing parts are undefined, not an error.
      await t.storage.tokens.put(
        makeToken({ id: "11", tokenHash: "app", appId: "7", accountId: null }),
      );
      assert.deepEqual(await t.storage.joined.tokenHolder("app"), {
        token: await t.storage.tokens.get("11"),
        app: await t.storage.apps.get("7"),
        account: undefined,
        user: undefined,
      });
      await t.storage.tokens.put(
        makeToken({ id: "12", tokenHash: "orphan", appId: "not-an-id", accountId: "2" }),
      );
      const orphan = await t.storage.joined.tokenHolder("orphan");
      assert.equal(orphan?.token.id, "12");
      assert.equal(orphan?.app, undefined);
      assert.equal(orphan?.account, undefined);
      assert.equal(orphan?.user, undefined);
      assert.equal(await t.storage.joined.tokenHolder("unknown"), undefined);
      // Of two tokens with one hash, the newer answers (as findByTokenHash).
      await t.storage.tokens.put(makeToken({ id: "13", tokenHash: "user", appId: "7" }));
      assert.equal(
        (await t.storage.joined.tokenHolder("user"))?.token.id,
        (await t.storage.tokens.findByTokenHash("user"))?.id,
      );
    });

    it("answers several edge questions about one account, each as its store would", async () => {
      // Every kind holds edges both ways around account 1; each kind a different set.
      for (const [i, kind] of EDGE_KINDS.entries()) {
        const store = edgeStoreOf(t.storage, kind);
        await store.put(kind.make({ id: String(100 + i), accountId: "1", targetId: String(i) }));
        await store.put(
          kind.make({ id: String(200 + i), accountId: String(i + 1), targetId: "1" }),
        );
        await store.put(kind.make({ id: String(300 + i), accountId: "9", targetId: String(i) }));
      }
      const everything = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"];
      const questions: EdgeQuestion[] = EDGE_KINDS.flatMap((kind) => [
        { kind: kind.name as EdgeStoreName, direction: "from" as const, ids: everything },
        { kind: kind.name as EdgeStoreName, direction: "to" as const, ids: everything },
      ]);
      questions.push({ kind: "follows", direction: "from", ids: [] });
      const answers = await t.storage.joined.edges("1", questions);
      assert.equal(answers.length, questions.length);
      for (const [i, q] of questions.entries()) {
        const store = t.storage[q.kind];
        const expected =
          q.direction === "from"
            ? await store.findFrom("1", q.ids)
            : await store.findTo("1", q.ids);
        assert.deepEqual(answers[i], expected, `${q.kind} ${q.direction}`);
      }
      assert.equal(answers[0]?.get("0")?.id, "100");
      assert.equal(answers[1]?.get("1")?.id, "200");
      assert.deepEqual(await t.storage.joined.edges("1", []), []);
    });

    it("counts replies, reblogs, favourites and quotes of statuses, zeros included", async () => {
      await Promise.all(
        [
          makeStatus({ id: "10", accountId: "1" }),
          makeStatus({ id: "20", accountId: "2", inReplyToId: "10", inReplyToAccountId: "1" }),
          makeStatus({ id: "30", accountId: "3", reblogOfId: "10" }),
          makeStatus({ id: "40", accountId: "3", reblogOfId: "10", deleted: true }),
        ].map((s) => t.storage.statuses.put(s)),
      );
      for (const [i, accountId] of ["2", "3"].entries()) {
        await t.storage.favourites.put(
          makeFavourite({ id: String(50 + i), accountId, targetId: "10" }),
        );
      }
      await t.storage.favourites.put(makeFavourite({ id: "60", accountId: "2", targetId: "20" }));
      // A quote edge goes from the quoting status to the quoted one.
      await t.storage.quotes.put(makeEdge({ id: "70", accountId: "20", targetId: "10" }));
      assert.deepEqual(
        await t.storage.joined.statusCounts(["10", "20", "30", "404"]),
        new Map([
          ["10", { replies: 1, reblogs: 1, favourites: 2, quotes: 1 }],
          ["20", { replies: 0, reblogs: 0, favourites: 1, quotes: 0 }],
          ["30", { replies: 0, reblogs: 0, favourites: 0, quotes: 0 }],
          ["404", { replies: 0, reblogs: 0, favourites: 0, quotes: 0 }],
        ]),
      );
      assert.deepEqual(await t.storage.joined.statusCounts([]), new Map());
    });

    it("counts statuses and follows of accounts, zeros included", async () => {
      await Promise.all(
        [
          makeStatus({ id: "10", accountId: "1", createdAt: "2026-01-01T00:00:00.000Z" }),
          makeStatus({ id: "20", accountId: "1", createdAt: "2026-01-02T00:00:00.000Z" }),
          makeStatus({ id: "30", accountId: "1", deleted: true }),
          makeStatus({ id: "40", accountId: "2", createdAt: "2026-01-04T00:00:00.000Z" }),
        ].map((s) => t.storage.statuses.put(s)),
      );
      const follow = (id: string, accountId: string, targetId: string) =>
        t.storage.follows.put(makeFollow({ id, accountId, targetId }));
      await follow("100", "2", "1");
      await follow("101", "3", "1");
      await follow("102", "1", "3");
      // Another kind of edge counts for nothing here.
      await t.storage.blocks.put(makeBlock({ id: "103", accountId: "4", targetId: "1" }));
      assert.deepEqual(
        await t.storage.joined.accountCounts(["1", "2", "3", "404"]),
        new Map([
          [
            "1",
            { statuses: 2, lastStatusAt: "2026-01-02T00:00:00.000Z", followers: 2, following: 1 },
          ],
          [
            "2",
            { statuses: 1, lastStatusAt: "2026-01-04T00:00:00.000Z", followers: 0, following: 1 },
          ],
          ["3", { statuses: 0, lastStatusAt: null, followers: 1, following: 1 }],
          ["404", { statuses: 0, lastStatusAt: null, followers: 0, following: 0 }],
        ]),
      );
      assert.deepEqual(await t.storage.joined.accountCounts([]), new Map());
    });
  });
}
