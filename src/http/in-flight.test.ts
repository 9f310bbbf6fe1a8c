import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { trackInFlight } from "./in-flight.ts";

describe("requests in flight", () => {
  it("drains once every running handler has answered, whatever its outcome", async () => {
    const releases: (() => void)[] = [];
    const tracked = trackInFlight((fail: boolean) => {
      return new Promise<Response>((resolve, reject) => {
        releases.push(() => (fail ? reject(new Error("failed")) : resolve(new Response("ok"))));
      });
    });
    const answers = [tracked.fetch(false), tracked.fetch(true)];
    let drained = false;
    const draining = tracked.drained(60_000).then((ok) => {
      drained = ok;
    });
    releases[0]?.();
    await answers[0];
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(drained, false, "one handler still runs");
    releases[1]?.();
    await assert.rejects(answers[1] as Promise<Response>, /failed/);
    await draining;
    assert.equal(drained, true);
  });

  it("counts handlers that answer at once or throw, and is drained with none running", async () => {
    const tracked = trackInFlight((kind: "sync" | "throw") => {
      if (kind === "throw") throw new Error("thrown");
      return new Response("now");
    });
    assert.equal(await (tracked.fetch("sync") as Response).text(), "now");
    assert.throws(() => tracked.fetch("throw"), /thrown/);
    assert.equal(await tracked.drained(60_000), true);
  });

  it("gives up after the limit when a handler never answers", async () => {
    const tracked = trackInFlight(() => new Promise<Response>(() => {}));
    void tracked.fetch();
    assert.equal(await tracked.drained(20), false);
  });
});
