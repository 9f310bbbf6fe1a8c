import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createCallsInTurn } from "./calls-in-turn.ts";

describe("calls in turn", () => {
  /** A statement that answers each number doubled once `release` is called. */
  const held = () => {
    const sent: number[][] = [];
    const releases: (() => void)[] = [];
    const call = createCallsInTurn<number, number>(async (args) => {
      sent.push(args);
      await new Promise<void>((resolve) => releases.push(resolve));
      if (args.includes(13)) throw new Error("unlucky");
      return args.map((n) => n * 2);
    });
    const release = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    };
    return { sent, call, release };
  };

  it("sends the calls of one turn together, and those during a statement in the next", async () => {
    const { sent, call, release } = held();
    const first = [call(1), call(2)];
    await new Promise((resolve) => setImmediate(resolve));
    const later = [call(3), call(4), call(5)];
    assert.deepEqual(sent, [[1, 2]]);
    await release();
    assert.deepEqual(await Promise.all(first), [2, 4]);
    await release();
    assert.deepEqual(await Promise.all(later), [6, 8, 10]);
    assert.deepEqual(sent, [
      [1, 2],
      [3, 4, 5],
    ]);
    // Nothing under way: the next call goes at once, alone.
    const alone = call(6);
    await release();
    assert.equal(await alone, 12);
    assert.deepEqual(sent.at(-1), [6]);
  });

  it("fails the calls of a failed statement, and goes on with the next", async () => {
    const { call, release } = held();
    const failing = [call(12), call(13)];
    await new Promise((resolve) => setImmediate(resolve));
    const next = call(14);
    await release();
    for (const result of await Promise.allSettled(failing)) {
      assert.equal(result.status, "rejected");
    }
    await release();
    assert.equal(await next, 28);
  });
});
