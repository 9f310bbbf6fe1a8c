// What the contract cannot show about the PostgreSQL account, auth and feature stores: ids that
// fit no bigint answer "not found" instead of failing the statement, search takes LIKE's wildcards
// literally, an authorization code is taken once across two processes, and an account kept by uri
// follows writes of either process.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ids } from "../contract/context.ts";
import { makeAccount, makeCode } from "../contract/fixtures.ts";
import { makeMedia } from "../contract/media.ts";
import { isRowId } from "./rows.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

/** Ids a request can carry that name no row: leading zero, past the bigint range, not digits. */
const NO_ROW = ["007", "9223372036854775808", "9".repeat(25), "-1", "1.5", "abc", ""];

describe("postgres: account, auth and feature stores", () => {
  const processes = twoProcessesOnOneDatabase();

  it("tells ids that fit a bigint column from those that cannot name a row", () => {
    for (const id of ["0", "1", "9223372036854775807"]) assert.ok(isRowId(id), id);
    for (const id of NO_ROW) assert.ok(!isRowId(id), id);
  });

  it("answers not found for such ids instead of failing", async () => {
    await processes.a.accounts.put(makeAccount({ id: "7" }));
    await processes.a.media.put(makeMedia({ id: "7" }));
    for (const id of NO_ROW) {
      assert.equal(await processes.a.accounts.get(id), undefined);
      assert.equal(await processes.a.media.get(id), undefined);
      assert.equal(await processes.a.media.delete(id), false);
      assert.equal(await processes.a.markers.get(id, "home"), undefined);
      assert.deepEqual(await processes.a.tokens.listByAccount(id), []);
      assert.equal(await processes.a.announcementReactions.delete(id, id, "👍"), false);
    }
    assert.deepEqual(
      [...(await processes.a.accounts.getMany([...NO_ROW, "7", "7"])).keys()],
      ["7"],
    );
    assert.deepEqual([...(await processes.a.media.getMany(NO_ROW)).keys()], []);
  });

  it("searches for LIKE's wildcards literally", async () => {
    await processes.a.accounts.put(
      makeAccount({ id: "1", username: "alice", displayName: "100% real" }),
    );
    await processes.a.accounts.put(
      makeAccount({ id: "2", username: "a_b", displayName: "back\\slash" }),
    );
    const search = (query: string) =>
      processes.a.accounts.search(query, { limit: 10, offset: 0, localOnly: false }).then(ids);
    assert.deepEqual(await search("100%"), ["1"]);
    assert.deepEqual(await search("%"), ["1"]);
    assert.deepEqual(await search("_"), ["2"]);
    assert.deepEqual(await search("\\"), ["2"]);
    assert.deepEqual(await search("a%e"), []);
  });

  it("keeps accounts by uri (found or not) until a write in either process", async () => {
    const { a, b } = processes;
    const uri = "https://remote.test/users/kept";
    assert.equal(await a.accounts.findByUri(uri), undefined);
    const account = makeAccount({ id: "41", username: "kept", domain: "remote.test", uri });
    await b.accounts.put(account);
    // Another process's write: heard through its change signal.
    await eventually(
      async () => (await a.accounts.findByUri(uri))?.id,
      (id) => id === "41",
    );
    await a.accounts.put({ ...account, displayName: "Renamed" });
    // This process's own write: at once.
    assert.equal((await a.accounts.findByUri(uri))?.displayName, "Renamed");
  });

  it("gives a code to one of two processes taking it at once", async () => {
    await processes.a.authorizationCodes.put(makeCode({ codeHash: "c1" }));
    const taken = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? processes.a : processes.b).authorizationCodes.take("c1"),
      ),
    );
    assert.equal(taken.filter((code) => code !== undefined).length, 1);
  });

  it("keeps one reaction per triple when two processes add it at once", async () => {
    const reaction = (id: string) => ({
      id,
      announcementId: "1",
      accountId: "1",
      name: "wren",
      createdAt: "2025-01-01T00:00:00.000Z",
    });
    await Promise.all(
      ["10", "11", "12", "13"].map((id, i) =>
        (i % 2 === 0 ? processes.a : processes.b).announcementReactions.put(reaction(id)),
      ),
    );
    assert.equal((await processes.b.announcementReactions.listByAnnouncement("1")).length, 1);
  });
});
