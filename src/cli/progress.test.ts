// The doctor's progress on stderr: a bar redrawn in place on a terminal, plain lines elsewhere.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { progressOnStderr } from "./progress.ts";

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  const stream = { isTTY, write: (s: string) => writes.push(s) > 0 };
  return { stream: stream as Pick<NodeJS.WriteStream, "isTTY" | "write">, writes };
}

describe("progress on stderr", () => {
  it("draws a bar in place on a terminal and ends the line when finished", () => {
    const { stream, writes } = fakeStream(true);
    const progress = progressOnStderr("Checking", stream);
    progress.update(1, 4);
    progress.update(2, 4); // within a tenth of a second: not redrawn
    progress.finish(4, 4);
    assert.equal(writes.length, 2);
    assert.match(writes[0] ?? "", /^\rChecking \[#{8}\.{22}\] {2}25% 1\/4 files$/);
    assert.match(writes[1] ?? "", /^\rChecking \[#{30}\] 100% 4\/4 files\n$/);
  });

  it("writes plain lines when stderr is not a terminal", () => {
    const { stream, writes } = fakeStream(false);
    const progress = progressOnStderr("Checking", stream);
    progress.update(1, 4);
    progress.finish(4, 4);
    assert.deepEqual(writes, ["Checking: 1 of 4 files (25%)\n", "Checking: 4 of 4 files (100%)\n"]);
  });
});
