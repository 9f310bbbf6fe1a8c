// Calls gathered while a statement is under way (gathered-statements.ts, ADR 0057): a lone one
// goes at once, those asked meanwhile go in one statement, each gets its own answer, a group's
// statement carries only its calls, and a failed statement fails each of its calls.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gathered } from "./gathered-statements.ts";

describe("gathered statements", () => {
  it("sends a lone call at once and gathers those asked while it is sent", async () => {
    const sent: [string, string[]][] = [];
    let release = () => {};
    const complete = gathered<string, boolean>(async (owner, ids) => {
      sent.push([owner, ids]);
      if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
      // "j2" was not this owner's (its lease passed): not removed.
      return ids.map((id) => id !== "j2");
    });
    const first = complete("runner-a", "j0");
    assert.deepEqual(sent, [["runner-a", ["j0"]]], "at once");
    const later = [
      complete("runner-a", "j1"),
      complete("runner-a", "j2"),
      complete("runner-a", "j3"),
    ];
    const other = complete("runner-b", "k1");
    release();
    assert.deepEqual(await Promise.all([first, ...later, other]), [true, true, false, true, true]);
    assert.deepEqual(sent, [
      ["runner-a", ["j0"]],
      ["runner-b", ["k1"]],
      ["runner-a", ["j1", "j2", "j3"]],
    ]);
  });

  it("fails each call of a statement that failed, and sends the next ones anew", async () => {
    let calls = 0;
    const complete = gathered<string, boolean>(async (_owner, ids) => {
      calls++;
      if (calls === 1) throw new Error("connection lost");
      return ids.map(() => true);
    });
    await assert.rejects(complete("runner", "j0"), /connection lost/);
    assert.equal(await complete("runner", "j1"), true);
  });

  it("sends at most `most` calls in one statement, the others in the next", async () => {
    const sent: string[][] = [];
    const put = gathered<string, string>(
      async (_group, items) => {
        sent.push(items);
        await new Promise((resolve) => setImmediate(resolve));
        return items.map((item) => item.toUpperCase());
      },
      { most: 2 },
    );
    const answers = await Promise.all(["a", "b", "c", "d", "e", "f"].map((item) => put("", item)));
    assert.deepEqual(answers, ["A", "B", "C", "D", "E", "F"]);
    assert.deepEqual(sent, [["a"], ["b", "c"], ["d", "e"], ["f"]]);
  });
});
