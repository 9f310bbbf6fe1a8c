// The once-per-activity guard over a real json-file storage: concurrent copies act once, a
// failed copy lets a waiting copy act, a done activity is skipped (also after a restart, by its
// durable record, for a day), and an activity that reuses a done one's id with another body acts.
// On PostgreSQL, copies reaching two processes at once act once as well.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ServiceContext } from "../../services/context.ts";
import { openJsonFileStorage } from "../../storage/json-file/index.ts";
import type { Storage } from "../../storage/ports.ts";
import { openPostgresStorage } from "../../storage/postgres/index.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../storage/postgres/testing/temp-database.ts";
import type { ActivityKey } from "./activity-key.ts";
import { DONE_TTL_MS, once } from "./once.ts";

const key = (n: number, digest = "body-a"): ActivityKey => ({
  id: `https://remote.example/activities/${n}`,
  digest,
});

describe("once", () => {
  let dir: string;
  let storage: Storage;
  let now = Date.parse("2026-01-01T00:00:00Z");
  const clock = { now: () => new Date(now) };
  /** once() uses the context's storage (its key–value store) and clock. */
  let ctx: ServiceContext;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-once-"));
    storage = await openJsonFileStorage(dir);
    ctx = { storage, clock } as unknown as ServiceContext;
  });

  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("acts once on copies that run at the same time", async () => {
    let acted = 0;
    const gate = Promise.withResolvers<void>();
    const work = async () => {
      acted++;
      await gate.promise;
    };
    const copies = [once(ctx, key(1), work), once(ctx, key(1), work), once(ctx, key(1), work)];
    gate.resolve();
    assert.deepEqual(await Promise.all(copies), [true, false, false]);
    assert.equal(acted, 1);
    assert.equal(await once(ctx, key(1), work), false, "a later replay");
    assert.equal(acted, 1);
  });

  it("lets a waiting copy act when the first one fails", async () => {
    const gate = Promise.withResolvers<void>();
    let attempts = 0;
    const work = async () => {
      attempts++;
      if (attempts === 1) {
        await gate.promise;
        throw new Error("peer down");
      }
    };
    const first = once(ctx, key(2), work);
    const second = once(ctx, key(2), work);
    gate.resolve();
    await assert.rejects(first, /peer down/);
    assert.equal(await second, true);
    assert.equal(attempts, 2);
    // The failed copy's retry finds it done.
    assert.equal(await once(ctx, key(2), work), false);
  });

  it("acts again after a failure", async () => {
    await assert.rejects(
      once(ctx, key(3), async () => {
        throw new Error("disk full");
      }),
    );
    let acted = 0;
    assert.equal(await once(ctx, key(3), async () => void acted++), true);
    assert.equal(acted, 1);
  });

  it("acts on an activity that reuses a done activity's id with another body", async () => {
    let acted = 0;
    assert.equal(await once(ctx, key(4, "accept-of-follow-1"), async () => void acted++), true);
    assert.equal(await once(ctx, key(4, "accept-of-follow-2"), async () => void acted++), true);
    assert.equal(await once(ctx, key(4, "accept-of-follow-2"), async () => void acted++), false);
    assert.equal(acted, 2);
  });

  it("remembers a done activity durably (another process, a restart) for a day", async () => {
    await once(ctx, key(5), async () => {});
    // Another guard (as after a restart) over the same storage: the durable record answers.
    const restarted = () =>
      ({
        storage: { kv: storage.kv, coordination: storage.coordination },
        clock,
      }) as unknown as ServiceContext;
    let acted = 0;
    assert.equal(await once(restarted(), key(5), async () => void acted++), false);
    now += DONE_TTL_MS + 1;
    assert.equal(await once(restarted(), key(5), async () => void acted++), true);
    assert.equal(acted, 1);
  });

  it("acts on every activity without an id", async () => {
    let acted = 0;
    await once(ctx, null, async () => void acted++);
    await once(ctx, null, async () => void acted++);
    assert.equal(acted, 2);
  });
});

describe("once, across processes sharing PostgreSQL", () => {
  let database: TempDatabase;
  let contexts: ServiceContext[];
  const clock = { now: () => new Date("2026-01-01T00:00:00Z") };

  before(async () => {
    database = await createTempDatabase();
    contexts = await Promise.all(
      [1, 2].map(async () => {
        const storage = await openPostgresStorage({ url: database.url, poolMax: 2 });
        return { storage, clock } as unknown as ServiceContext;
      }),
    );
  });

  after(async () => {
    await Promise.all(contexts.map((c) => c.storage.close()));
    await database.drop();
  });

  it("acts once on copies delivered to two processes at the same time", async () => {
    let acted = 0;
    const gate = Promise.withResolvers<void>();
    const work = async () => {
      acted++;
      await gate.promise;
    };
    const [one, two] = contexts as [ServiceContext, ServiceContext];
    const first = once(one, key(100), work);
    // The second process's copy waits on the first one's lock, then finds its record.
    while (acted === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const second = once(two, key(100), work);
    gate.resolve();
    assert.deepEqual(await Promise.all([first, second]), [true, false]);
    assert.equal(acted, 1);
  });

  it("lets the other process act when the first copy fails", async () => {
    const [one, two] = contexts as [ServiceContext, ServiceContext];
    const gate = Promise.withResolvers<void>();
    let attempts = 0;
    const work = async () => {
      attempts++;
      if (attempts === 1) {
        await gate.promise;
        throw new Error("first copy failed");
      }
    };
    const first = once(one, key(101), work);
    while (attempts === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const second = once(two, key(101), work);
    gate.resolve();
    await assert.rejects(first, /first copy failed/);
    assert.equal(await second, true);
    assert.equal(attempts, 2);
  });
});
