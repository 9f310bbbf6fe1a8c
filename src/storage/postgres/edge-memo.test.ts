// Edges kept by pair and boosts kept by (account, original) (edge-memo.ts, reblog-memo.ts): kept
// answers really are answered without the database until a write names them; and, on a real
// database, another process's follow, block, mute, favourite, bookmark or boost (and their undoing)
// reaches this one's memo through the change notification naming the pair (migration 0038).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  makeBlock,
  makeEdge,
  makeFavourite,
  makeFollow,
  makeMute,
  makeStatus,
} from "../contract/fixtures.ts";
import type { EdgeQuestion, Storage } from "../ports.ts";
import { createChanges, parseChange } from "./changes.ts";
import { connectPostgres } from "./connect.ts";
import { createEdgeMemo, pairName, SOURCE_EDGES } from "./edge-memo.ts";
import { eventually, rawDatabase, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

/** Ids the signal must escape: a comma, a bar, a space and a percent sign. */
const AWKWARD = "a,b|c d%2C";

describe("edge memo on one connection", () => {
  const raw = rawDatabase(2);

  it("answers kept pairs and lists without the database until a write names them", async () => {
    const { sql } = raw;
    const changes = createChanges();
    const memo = createEdgeMemo(sql, changes);
    const follow = { kind: "follows", accountId: "1", targetId: "2" };
    const third = { kind: "follows", accountId: "1", targetId: "3" };
    const insert = (target: string, id: number) => sql`
      insert into edges (kind, account_id, target_id, id, data) values ('follows', '1', ${target},
        ${id}, ${sql.json({ id: String(id), accountId: "1", targetId: target })})`;
    await insert("2", 10);
    const targets = () => memo.targets("follows", "1", async () => ["read"]);
    assert.equal((await memo.find([follow]))[0]?.id, "10");
    assert.deepEqual(await targets(), ["read"]);
    // A write this memo is not told of (no listener here) leaves what it kept.
    await sql`delete from edges`;
    assert.equal((await memo.find([follow]))[0]?.id, "10");
    assert.deepEqual(await memo.targets("follows", "1", async () => assert.fail("asked")), [
      "read",
    ]);
    // Naming the pair forgets it and the list of its (kind, account), not the others.
    await memo.find([third]);
    await insert("3", 11);
    changes.rows("edges", [pairName("follows", "1", "2")]);
    assert.equal((await memo.find([follow]))[0], undefined);
    assert.equal(
      (await memo.find([{ kind: "follows", accountId: "1", targetId: "3" }]))[0],
      undefined,
    );
    assert.deepEqual(await memo.targets("follows", "1", async () => ["again"]), ["again"]);
    // A write that names nothing forgets everything.
    changes.bump("edges");
    assert.equal(
      (await memo.find([{ kind: "follows", accountId: "1", targetId: "3" }]))[0]?.targetId !==
        undefined,
      true,
    );
  });

  it("names a pair as the database's signal does, whatever its ids hold", async () => {
    const { sql } = raw;
    for (const [account, target] of [
      ["1", "2"],
      ["1", AWKWARD],
      ["%20", "x y"],
    ] as const) {
      const [row] = await sql<{ name: string }[]>`
        select wren_edge_pair('tag-follows', ${account}, ${target}) as name`;
      assert.equal(row?.name, pairName("tag-follows", account, target));
    }
    assert.deepEqual(
      parseChange(`wren-1|edges:${pairName("tag-follows", "1", AWKWARD)},follows 1 2`).ids,
      [pairName("tag-follows", "1", AWKWARD), "follows 1 2"],
    );
  });

  it("does not keep a pair that a write raced, and forgets pairs named with awkward ids", async () => {
    const { sql } = raw;
    const changes = createChanges();
    const memo = createEdgeMemo(sql, changes);
    const pair = { kind: "mutes", accountId: AWKWARD, targetId: "2" };
    const other = { kind: "mutes", accountId: "1", targetId: AWKWARD };
    // The write is named while the statement that reads the pair is under way.
    const reading = memo.find([pair, other]);
    changes.rows("edges", [pairName("mutes", AWKWARD, "2")]);
    assert.deepEqual(await reading, [undefined, undefined]);
    await sql`
      insert into edges (kind, account_id, target_id, id, data) values
        ('mutes', ${AWKWARD}, '2', 50, ${sql.json({ id: "50", accountId: AWKWARD, targetId: "2" })}),
        ('mutes', '1', ${AWKWARD}, 51, ${sql.json({ id: "51", accountId: "1", targetId: AWKWARD })})`;
    // The raced pair was asked again; the other was kept as missing, until its name is heard.
    assert.deepEqual(
      (await memo.find([pair, other])).map((edge) => edge?.id),
      ["50", undefined],
    );
    changes.rows("edges", [pairName("mutes", "1", AWKWARD)]);
    assert.deepEqual(
      (await memo.find([pair, other])).map((edge) => edge?.id),
      ["50", "51"],
    );
    // Kept edges are frozen: every later reader shares them.
    assert.equal(Object.isFrozen((await memo.find([pair]))[0]), true);
  });

  it("does not keep a list that a write to one of its pairs raced", async () => {
    const changes = createChanges();
    const memo = createEdgeMemo(raw.sql, changes);
    const raced = await memo.targets("blocks", "1", async () => {
      changes.rows("edges", [pairName("blocks", "1", "9")]);
      return ["old"];
    });
    assert.deepEqual(raced, ["old"]);
    assert.deepEqual(await memo.targets("blocks", "1", async () => ["new"]), ["new"]);
    // A write to another account's list of the kind, or to another kind, leaves it.
    changes.rows("edges", [pairName("blocks", "2", "1"), pairName("mutes", "1", "9")]);
    assert.deepEqual(await memo.targets("blocks", "1", async () => assert.fail("asked")), ["new"]);
  });

  it("does not keep a long list of targets", async () => {
    const changes = createChanges();
    const memo = createEdgeMemo(raw.sql, changes);
    const many = Array.from({ length: 2_001 }, (_, i) => String(i));
    let asked = 0;
    const load = async () => {
      asked += 1;
      return many;
    };
    await memo.targets("follows", "1", load);
    await memo.targets("follows", "1", load);
    assert.equal(asked, 2);
  });
});

/** b's answer to one question from `viewer`, as a set of the other side's ids. */
async function asked(storage: Storage, viewer: string, question: EdgeQuestion) {
  const [answer] = await storage.joined.edges(viewer, [question]);
  return new Set(answer?.keys());
}

describe("postgres edge memo across processes", () => {
  const processes = twoProcessesOnOneDatabase(4);

  it("sees another process's follow, block, mute, favourite and bookmark, and their undoing", async () => {
    const { a, b } = processes;
    const questions: EdgeQuestion[] = [
      { kind: "follows", direction: "from", ids: ["2"] },
      { kind: "blocks", direction: "to", ids: ["3"] },
      { kind: "mutes", direction: "from", ids: ["4"] },
      { kind: "favourites", direction: "from", ids: ["100"] },
      { kind: "bookmarks", direction: "from", ids: ["100"] },
    ];
    const sizes = async () =>
      (await b.joined.edges("1", questions)).map((answer) => answer.size).join("");
    // b keeps that there are none.
    assert.equal(await sizes(), "00000");
    assert.deepEqual(await b.follows.allTargetsFrom("1"), []);
    assert.equal((await b.favourites.findFrom("1", ["100"])).size, 0);

    await a.follows.put(makeFollow({ id: "10", accountId: "1", targetId: "2" }));
    await a.blocks.put(makeBlock({ id: "11", accountId: "3", targetId: "1" }));
    await a.mutes.put(makeMute({ id: "12", accountId: "1", targetId: "4" }));
    await a.favourites.put(makeFavourite({ id: "13", accountId: "1", targetId: "100" }));
    await a.bookmarks.put(makeEdge({ id: "14", accountId: "1", targetId: "100" }));
    // The writer sees its own writes at once.
    assert.equal((await a.joined.edges("1", questions)).map((x) => x.size).join(""), "11111");
    await eventually(sizes, (s) => s === "11111");
    await eventually(
      () => b.follows.allTargetsFrom("1"),
      (targets) => targets.join() === "2",
    );
    await eventually(
      () => b.favourites.findFrom("1", ["100"]),
      (found) => found.get("100")?.id === "13",
    );
    await eventually(
      () => b.blocks.findTo("1", ["3"]),
      (found) => found.has("3"),
    );

    // A change of an edge's record, then its removal.
    await a.follows.put(makeFollow({ id: "10", accountId: "1", targetId: "2", notify: true }));
    await eventually(
      () => b.joined.edges("1", [questions[0] as EdgeQuestion]),
      ([found]) => (found?.get("2") as { notify?: boolean } | undefined)?.notify === true,
    );
    assert.equal(await a.follows.delete("1", "2"), true);
    assert.equal(await a.blocks.delete("3", "1"), true);
    assert.equal(await a.bookmarks.delete("1", "100"), true);
    await eventually(sizes, (s) => s === "00110");
    await eventually(
      () => b.follows.allTargetsFrom("1"),
      (targets) => targets.length === 0,
    );
  });

  it("keeps a target's followers whole, pages cut from them as the database pages them", async () => {
    const { a, b } = processes;
    const ids = (edges: readonly { id: string }[]) => edges.map((e) => e.id).join();
    // b keeps that target 39 has none: seeing a's later follow of it means b heard every signal
    // of a's puts before it (signals arrive in commit order).
    assert.deepEqual(await b.follows.listTo("39", { limit: 9 }), []);
    for (const id of ["31", "32", "33", "34"]) {
      await a.follows.put(makeFollow({ id, accountId: `f${id}`, targetId: "30" }));
    }
    await a.follows.put(makeFollow({ id: "38", accountId: "f38", targetId: "39" }));
    await eventually(
      async () => ids(await b.follows.listTo("39", { limit: 9 })),
      (list) => list === "38",
    );
    const pages = [
      { limit: 2 },
      { limit: 2, maxId: "33" },
      { limit: 2, sinceId: "31" },
      { limit: 2, minId: "31" },
      { limit: 5, minId: "31", maxId: "34" },
      { limit: 0 },
      { limit: 9, maxId: "0031" },
    ];
    // "0031" lies above every two-digit id (id-window.ts: ids compare by length first).
    const answers = ["34,33", "32,31", "34,33", "33,32", "33,32", "", "34,33,32,31"];
    assert.deepEqual(
      await Promise.all(pages.map(async (page) => ids(await b.follows.listTo("30", page)))),
      answers,
    );
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      // Deleted without triggers (no signal): b still answers what it kept.
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`delete from edges where kind = 'follows' and id = 34`;
      });
      assert.equal(ids(await b.follows.listTo("30", { limit: 2 })), "34,33");
      // Another process's follow of the target names it: b reads the list again.
      await a.follows.put(makeFollow({ id: "35", accountId: "f35", targetId: "30" }));
      await eventually(
        async () => ids(await b.follows.listTo("30", { limit: 9 })),
        (list) => list === "35,33,32,31",
      );
      // A follow of another target leaves it.
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`delete from edges where kind = 'follows' and id = 35`;
      });
      assert.deepEqual(await b.follows.listTo("37", { limit: 9 }), []);
      await a.follows.put(makeFollow({ id: "36", accountId: "f36", targetId: "37" }));
      await eventually(
        async () => ids(await b.follows.listTo("37", { limit: 9 })),
        (list) => list === "36",
      );
      assert.equal(ids(await b.follows.listTo("30", { limit: 9 })), "35,33,32,31");
    } finally {
      await sql.end();
    }
  });

  it("reads a target with more followers than it keeps page by page", async () => {
    const { a, b } = processes;
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      await sql`
        insert into edges (kind, account_id, target_id, id, data)
        select 'follows', 'g' || n, '40', 1000 + n,
          jsonb_build_object('id', (1000 + n)::text, 'accountId', 'g' || n, 'targetId', '40')
        from generate_series(1, ${SOURCE_EDGES + 1}) as n`;
      const first = await b.follows.listTo("40", { limit: 3 });
      assert.deepEqual(
        first.map((e) => e.id),
        [2001, 2000, 1999].map((n) => String(n + SOURCE_EDGES - 1000)),
      );
      // Not kept: a deletion without a signal is seen at once.
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`delete from edges where kind = 'follows' and target_id = '40' and id > 1002`;
      });
      assert.deepEqual(
        (await b.follows.listTo("40", { limit: 3 })).map((e) => e.id),
        ["1002", "1001"],
      );
      assert.equal((await a.follows.listTo("40", { limit: 3 })).length, 2);
    } finally {
      await sql.end();
    }
  });

  it("forgets the pair an edge's id moved away from, in the writer at once", async () => {
    const { a, b } = processes;
    await a.follows.put(makeFollow({ id: "20", accountId: "1", targetId: "2" }));
    assert.equal((await asked(b, "1", { kind: "follows", direction: "from", ids: ["2"] })).size, 1);
    assert.equal((await asked(a, "1", { kind: "follows", direction: "from", ids: ["2"] })).size, 1);
    // The same id put with another pair moves the edge there.
    await a.follows.put(makeFollow({ id: "20", accountId: "1", targetId: "5" }));
    const question: EdgeQuestion = { kind: "follows", direction: "from", ids: ["2", "5"] };
    assert.deepEqual([...(await asked(a, "1", question))], ["5"]);
    await eventually(
      () => asked(b, "1", question),
      (found) => [...found].join() === "5",
    );
  });

  it("sees another process's boost and its undoing", async () => {
    const { a, b } = processes;
    await a.statuses.put(makeStatus({ id: "100", accountId: "2" }));
    assert.equal((await b.statuses.findReblogs("1", ["100"])).size, 0);
    const boost = makeStatus({ id: "101", accountId: "1", reblogOfId: "100" });
    await a.statuses.put(boost);
    assert.equal((await a.statuses.findReblogs("1", ["100"])).get("100")?.id, "101");
    await eventually(
      () => b.statuses.findReblogs("1", ["100"]),
      (found) => found.get("100")?.id === "101",
    );
    // Undone: the boost marked deleted, as unreblog does; then a new boost, then deleted outright.
    await a.statuses.put({ ...boost, deleted: true });
    assert.equal((await a.statuses.findReblogs("1", ["100"])).size, 0);
    await eventually(
      () => b.statuses.findReblogs("1", ["100"]),
      (found) => found.size === 0,
    );
    await a.statuses.put(makeStatus({ id: "102", accountId: "1", reblogOfId: "100" }));
    await eventually(
      () => b.statuses.findReblogs("1", ["100"]),
      (found) => found.get("100")?.id === "102",
    );
    assert.equal(await a.statuses.delete("102"), true);
    assert.equal((await a.statuses.findReblogs("1", ["100"])).size, 0);
    await eventually(
      () => b.statuses.findReblogs("1", ["100"]),
      (found) => found.size === 0,
    );
  });

  it("names in the signal the pairs and boosts written, and nothing for other statuses", async () => {
    const { a } = processes;
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    const heard: string[] = [];
    const { unlisten } = await sql.listen("wren_changes", (payload) => {
      const { table, ids } = parseChange(payload);
      heard.push(`${table}:${ids?.join(",") ?? "*"}`);
    });
    try {
      await a.follows.put(makeFollow({ id: "40", accountId: "1", targetId: AWKWARD }));
      await a.follows.put(makeFollow({ id: "40", accountId: "1", targetId: "6" }));
      await a.statuses.put(makeStatus({ id: "300", accountId: "2" }));
      await a.statuses.put(makeStatus({ id: "301", accountId: "1", reblogOfId: "300" }));
      await a.favourites.delete("1", "300");
      await a.favourites.put(makeFavourite({ id: "41", accountId: "1", targetId: "300" }));
      await eventually(
        async () => heard.filter((h) => /^(edges|reblogs):/.test(h)),
        (edges) => edges.length === 5,
      );
      // Sorted: the put that moves the id signals the pair it left (its delete) and the pair it
      // took (its insert) from one statement, in an order PostgreSQL does not promise.
      assert.deepEqual(heard.filter((h) => /^(edges|reblogs):/.test(h)).sort(), [
        "edges:favourites 1 300",
        "edges:follows 1 6",
        `edges:${pairName("follows", "1", AWKWARD)}`,
        `edges:${pairName("follows", "1", AWKWARD)}`,
        "reblogs:1 300",
      ]);
    } finally {
      await unlisten();
      await sql.end();
    }
  });

  it("sees writes made in SQL alone: awkward ids, many rows, truncation", async () => {
    const { a, b } = processes;
    const tag: EdgeQuestion = { kind: "tagFollows", direction: "from", ids: [AWKWARD] };
    assert.equal((await asked(b, "1", tag)).size, 0);
    await a.tagFollows.put(makeEdge({ id: "30", accountId: "1", targetId: AWKWARD }));
    await eventually(
      () => asked(b, "1", tag),
      (found) => found.has(AWKWARD),
    );
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      // More rows than a signal names: "any edge may have changed".
      const follows: EdgeQuestion = { kind: "follows", direction: "from", ids: ["7"] };
      assert.equal((await asked(b, "1", follows)).size, 0);
      await sql`
        insert into edges (kind, account_id, target_id, id, data)
        select 'follows', '1', n::text, 1000 + n,
          jsonb_build_object('id', (1000 + n)::text, 'accountId', '1', 'targetId', n::text)
        from generate_series(1, 250) as n`;
      await eventually(
        () => asked(b, "1", follows),
        (found) => found.has("7"),
      );
      await sql`truncate edges`;
      await eventually(
        () => asked(b, "1", tag),
        (found) => found.size === 0,
      );
      // A boost written in SQL alone.
      await a.statuses.put(makeStatus({ id: "200", accountId: "2" }));
      assert.equal((await b.statuses.findReblogs("1", ["200"])).size, 0);
      await sql`
        insert into statuses (id, account_id, uri, visibility, local, deleted, has_media,
          reblog_of_id, tags, data)
        select 201, 1, 'https://x/201', 'public', true, false, false, 200, '{}',
          ${sql.json(makeStatus({ id: "201", accountId: "1", reblogOfId: "200" }) as never)}`;
      await eventually(
        () => b.statuses.findReblogs("1", ["200"]),
        (found) => found.get("200")?.id === "201",
      );
    } finally {
      await sql.end();
    }
  });
});
