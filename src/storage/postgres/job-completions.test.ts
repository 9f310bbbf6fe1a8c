// Job completions gathered while a statement is under way (job-completions.ts, ADR 0057): a lone
// one goes at once, those asked meanwhile go in one statement, each gets its own answer, an
// owner's statement carries only its ids, and a failed statement fails each of its completions.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gatheredCompletions } from "./job-completions.ts";

describe("gathered job completions", () => {
  it("sends a lone completion at once and gathers those asked while it is sent", async () => {
    const sent: [string, string[]][] = [];
    let release = () => {};
    const complete = gatheredCompletions(async (owner, ids) => {
      sent.push([owner, ids]);
      if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
      // "j2" was not this owner's (its lease passed): not removed.
      return new Set(ids.filter((id) => id !== "j2"));
    });
    const first = complete("j0", "runner-a");
    assert.deepEqual(sent, [["runner-a", ["j0"]]], "at once");
    const later = [
      complete("j1", "runner-a"),
      complete("j2", "runner-a"),
      complete("j3", "runner-a"),
    ];
    const other = complete("k1", "runner-b");
    release();
    assert.deepEqual(await Promise.all([first, ...later, other]), [true, true, false, true, true]);
    assert.deepEqual(sent, [
      ["runner-a", ["j0"]],
      ["runner-b", ["k1"]],
      ["runner-a", ["j1", "j2", "j3"]],
    ]);
  });

  it("fails each completion of a statement that failed, and sends the next ones anew", async () => {
    let calls = 0;
    const complete = gatheredCompletions(async (_owner, ids) => {
      calls++;
      if (calls === 1) throw new Error("connection lost");
      return new Set(ids);
    });
    await assert.rejects(complete("j0", "runner"), /connection lost/);
    assert.equal(await complete("j1", "runner"), true);
  });
});
