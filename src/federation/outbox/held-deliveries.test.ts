import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HELD_DELIVERY_TTL_MS, heldWaitMs, MAX_DELIVERY_DELAY_MS } from "./held-deliveries.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("when a held delivery looks again", () => {
  it("first after the first retry delay, then after as long as it has been held", () => {
    assert.equal(heldWaitMs(0, 50, MINUTE), MINUTE);
    assert.equal(heldWaitMs(MINUTE, 0, MINUTE), MINUTE);
    assert.equal(heldWaitMs(2 * MINUTE, 0, MINUTE), 2 * MINUTE);
    assert.equal(heldWaitMs(30 * HOUR, 0, MINUTE), MAX_DELIVERY_DELAY_MS);
  });

  it("honours a longer wait that Fedify asks for (a server's Retry-After)", () => {
    assert.equal(heldWaitMs(MINUTE, HOUR, MINUTE), HOUR);
  });

  it("keeps trying for three days, about sixteen looks, never more than 12 hours apart", () => {
    let held = 0;
    const gaps: number[] = [];
    while (held < HELD_DELIVERY_TTL_MS) {
      const wait = heldWaitMs(held, 0, MINUTE);
      assert.ok(wait > 0, `a look ${held} ms into the hold waits`);
      gaps.push(wait);
      held += wait;
    }
    // The last look is the end of the hold, when Fedify drops the delivery and logs it.
    assert.equal(held, HELD_DELIVERY_TTL_MS);
    assert.ok(HELD_DELIVERY_TTL_MS >= 2 * 24 * HOUR, "as patient as Mastodon");
    assert.ok(gaps.length <= 20, `${gaps.length} looks`);
    assert.ok(Math.max(...gaps) <= 12 * HOUR);
    assert.deepEqual(gaps.slice(0, 4), [MINUTE, MINUTE, 2 * MINUTE, 4 * MINUTE]);
  });
});
