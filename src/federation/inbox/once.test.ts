// The once-per-activity guard: concurrent copies act once, a failed copy lets a waiting copy
// act, a done activity is skipped, and the guard writes nothing durable (so a crash cannot
// leave a claim behind that makes the job's rerun skip an activity never acted on).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ServiceContext } from "../../services/context.ts";
import { once } from "./once.ts";

/** once() keys its guard by the storage object and uses nothing else of the context. */
const instance = () => ({ storage: {} }) as ServiceContext;
const id = (n: number) => new URL(`https://remote.example/activities/${n}`);

describe("once", () => {
  it("acts once on copies that run at the same time", async () => {
    const ctx = instance();
    let acted = 0;
    const gate = Promise.withResolvers<void>();
    const work = async () => {
      acted++;
      await gate.promise;
    };
    const copies = [once(ctx, id(1), work), once(ctx, id(1), work), once(ctx, id(1), work)];
    gate.resolve();
    assert.deepEqual(await Promise.all(copies), [true, false, false]);
    assert.equal(acted, 1);
    assert.equal(await once(ctx, id(1), work), false, "a later replay");
    assert.equal(acted, 1);
  });

  it("lets a waiting copy act when the first one fails", async () => {
    const ctx = instance();
    const gate = Promise.withResolvers<void>();
    let attempts = 0;
    const work = async () => {
      attempts++;
      if (attempts === 1) {
        await gate.promise;
        throw new Error("peer down");
      }
    };
    const first = once(ctx, id(2), work);
    const second = once(ctx, id(2), work);
    gate.resolve();
    await assert.rejects(first, /peer down/);
    assert.equal(await second, true);
    assert.equal(attempts, 2);
    // The failed copy's retry finds it done.
    assert.equal(await once(ctx, id(2), work), false);
  });

  it("acts again after a failure, and keeps instances apart", async () => {
    const ctx = instance();
    await assert.rejects(
      once(ctx, id(3), async () => {
        throw new Error("disk full");
      }),
    );
    let acted = 0;
    assert.equal(await once(ctx, id(3), async () => void acted++), true);
    // Another instance (or the same data after a restart) has its own memory; Fedify's
    // processed-activity record is what refuses a copy there.
    assert.equal(await once(instance(), id(3), async () => void acted++), true);
    assert.equal(acted, 2);
  });

  it("acts on every activity without an id", async () => {
    const ctx = instance();
    let acted = 0;
    await once(ctx, null, async () => void acted++);
    await once(ctx, null, async () => void acted++);
    assert.equal(acted, 2);
  });
});
