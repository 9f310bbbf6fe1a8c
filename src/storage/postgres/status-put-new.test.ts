// StatusStore.putNew on a real PostgreSQL (ADR 0080, migration 0057): a new status is stored
// unless a status holds its uri, which then answers; copies put at once, from one process
// (gathered into one statement) or two, store one status, and every copy is answered with it.
// A plain put of a new id under a taken uri is refused by the unique index.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import type { Storage } from "../ports.ts";
import { twoProcessesOnOneDatabase } from "./testing/hooks.ts";

const URI = "https://remote.example/notes/1";

const putNew = (storage: Storage) => {
  const put = storage.statuses.putNew;
  assert.ok(put, "PostgreSQL's status store settles puts by uri");
  return put.bind(storage.statuses);
};

describe("postgres statuses put new, one per uri", () => {
  const processes = twoProcessesOnOneDatabase();

  it("stores a new status, then answers it to another status of its uri", async () => {
    const { a } = processes;
    const first = makeStatus({ id: "10", accountId: "1", uri: URI, tags: ["one"] });
    assert.equal(await putNew(a)(first), undefined);
    assert.equal((await a.statuses.findByUri(URI))?.id, "10");
    assert.equal(await a.statuses.countByAccount("1"), 1);

    const taken = await putNew(a)(makeStatus({ id: "11", accountId: "1", uri: URI }));
    assert.equal(taken?.id, "10");
    assert.equal(await a.statuses.get("11"), undefined);
    assert.equal(await a.statuses.countByAccount("1"), 1);
    // A deleted status holds its uri too (a Tombstone answers for it).
    await a.statuses.put({ ...first, deleted: true });
    assert.equal((await putNew(a)(makeStatus({ id: "12", accountId: "1", uri: URI })))?.id, "10");
  });

  it("stores one of copies put at once by two processes, each answered with it", async () => {
    const { a, b } = processes;
    const copies = Array.from({ length: 24 }, (_, i) =>
      makeStatus({ id: String(100 + i), accountId: String(1 + (i % 3)), uri: URI }),
    );
    const answers = await Promise.all(copies.map((copy, i) => putNew(i % 2 === 0 ? a : b)(copy)));
    const stored = await a.statuses.findByUri(URI);
    assert.ok(stored);
    assert.equal(answers.filter((answer) => answer === undefined).length, 1);
    for (const answer of answers) assert.equal(answer?.id ?? stored.id, stored.id);
    const counts = await a.statuses.accountFacts(["1", "2", "3"]);
    assert.equal(
      [...counts.values()].reduce((sum, facts) => sum + facts.count, 0),
      1,
    );
    const others = await a.statuses.getMany(copies.map((copy) => copy.id));
    assert.deepEqual([...others.keys()], [stored.id]);
  });

  it("refuses a plain put of a new status under a taken uri", async () => {
    const { a } = processes;
    await a.statuses.put(makeStatus({ id: "20", accountId: "1", uri: URI }));
    await assert.rejects(a.statuses.put(makeStatus({ id: "21", accountId: "1", uri: URI })));
    assert.equal((await a.statuses.findByUri(URI))?.id, "20");
  });
});
