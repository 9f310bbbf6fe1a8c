// Kept record identities (record-identities.ts): the same object while a row's text is the
// same, a new one as soon as it differs, frozen either way; and the status store hands out the
// same object for an unchanged status, read after read, and a new one after a write.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import { createRecordIdentities } from "./record-identities.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

describe("record identities", () => {
  it("answers the kept object for unchanged text and a new one for changed text", () => {
    const identities = createRecordIdentities<{ id: string; text: string; tags: string[] }>();
    const json = JSON.stringify({ id: "1", text: "a", tags: ["x"] });
    const first = identities.of({ key: "1", json });
    assert.equal(identities.of({ key: "1", json }), first);
    assert.throws(() => first.tags.push("y"), TypeError);
    const changed = identities.of({
      key: "1",
      json: JSON.stringify({ id: "1", text: "b", tags: [] }),
    });
    assert.notEqual(changed, first);
    assert.equal(changed.text, "b");
  });
});

describe("postgres status identities", () => {
  const processes = twoProcessesOnOneDatabase(2);

  it("hands out one object per unchanged status, and a new one once another process edits it", async () => {
    await processes.a.statuses.put(makeStatus({ id: "10", accountId: "1", text: "first" }));
    const read = await processes.b.statuses.get("10");
    assert.equal(read?.text, "first");
    assert.equal(await processes.b.statuses.get("10"), read);
    assert.equal((await processes.b.statuses.getMany(["10"])).get("10"), read);
    assert.equal((await processes.b.statuses.listByAccount("1", { limit: 5 }))[0], read);
    await processes.a.statuses.put(makeStatus({ id: "10", accountId: "1", text: "edited" }));
    // b keeps statuses by id until the change notification names this one (row-memo.ts).
    const again = await eventually(
      () => processes.b.statuses.get("10"),
      (s) => s?.text === "edited",
    );
    assert.notEqual(again, read);
  });
});
