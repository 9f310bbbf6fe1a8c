import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InFlight, tracked } from "./in-flight.ts";

describe("calls in flight at close", () => {
  it("waits for every promise a tracked store handed out, then resolves", async () => {
    const inFlight = new InFlight();
    const releases: (() => void)[] = [];
    const store = tracked(
      {
        put: () => new Promise<void>((resolve) => releases.push(resolve)),
        name: () => "sync",
      },
      inFlight,
    );
    const first = store.put();
    const second = store.put();
    assert.equal(store.name(), "sync");
    let idle = false;
    const waiting = inFlight.idle(60_000).then(() => {
      idle = true;
    });
    releases[0]?.();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(idle, false, "one call still runs");
    releases[1]?.();
    await second;
    await waiting;
    assert.equal(idle, true);
  });

  it("gives up waiting after the timeout, and resolves at once when nothing runs", async () => {
    const inFlight = new InFlight();
    await inFlight.idle(0);
    tracked({ hang: () => new Promise<void>(() => {}) }, inFlight).hang();
    await inFlight.idle(5);
  });
});
