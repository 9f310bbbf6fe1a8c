// Rate limits where several processes share the storage (PostgreSQL): two apps on two storages
// of one database count one caller's requests together, and a success-only limit spends only
// on successes wherever they happen. (One process on json-file counts in memory: the HTTP tests
// of the limits cover that.)

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import type { Clock } from "../../domain/clock.ts";
import type { Storage } from "../../storage/ports.ts";
import { openPostgresStorage } from "../../storage/postgres/index.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../storage/postgres/testing/temp-database.ts";
import type { HttpEnv } from "../env.ts";
import { type RateLimitOptions, rateLimit } from "./rate-limit.ts";

describe("rate limits shared by processes", () => {
  let database: TempDatabase;
  let storages: Storage[];
  let at = Date.parse("2026-03-01T12:00:00.000Z");
  const clock: Clock = { now: () => new Date(at) };

  before(async () => {
    database = await createTempDatabase();
    storages = await Promise.all(
      [1, 2].map(() => openPostgresStorage({ url: database.url, poolMax: 2 })),
    );
  });
  after(async () => {
    await Promise.all(storages.map((s) => s.close()));
    await database.drop();
  });

  /** One app per storage, as two processes behind a load balancer. */
  function apps(options: Omit<RateLimitOptions, "refuse">) {
    return storages.map((storage) => {
      const limiter = rateLimit(
        { ...options, refuse: (c) => c.text("slow down", 429) },
        { storage, clock },
      );
      const app = new Hono<HttpEnv>();
      app.use(limiter);
      app.get("/ok", (c) => c.text("ok"));
      app.get("/fail", (c) => c.text("no", 400));
      return { app, limiter };
    });
  }

  it("counts a caller's requests to every process in one window", async () => {
    const [one, two] = apps({
      name: "test-api",
      requests: 3,
      windowSeconds: 60,
      key: () => "ip:1",
    });
    assert.ok(one && two);
    const remaining: (string | null)[] = [];
    for (const side of [one, two, one]) {
      const response = await side.app.request("/ok");
      assert.equal(response.status, 200);
      remaining.push(response.headers.get("X-RateLimit-Remaining"));
    }
    assert.deepEqual(remaining, ["2", "1", "0"]);
    const refused = await two.app.request("/ok");
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("X-RateLimit-Reset"), "2026-03-01T12:01:00.000Z");
    // Another caller has its own budget, and nothing is held in either process's memory.
    const [other] = apps({ name: "test-api", requests: 3, windowSeconds: 60, key: () => "ip:2" });
    assert.equal((await other?.app.request("/ok"))?.status, 200);
    assert.equal(one.limiter.trackedKeys() + two.limiter.trackedKeys(), 0);
    // The window ends for both at once.
    at += 60_000;
    assert.equal((await two.app.request("/ok")).status, 200);
  });

  it("spends a success-only budget on successes in any process", async () => {
    const options = {
      name: "test-sender",
      requests: 2,
      windowSeconds: 60,
      key: () => "sender:a.example",
      countSuccessOnly: true,
    };
    const [one, two] = apps(options);
    assert.ok(one && two);
    assert.equal((await one.app.request("/fail")).status, 400);
    assert.equal((await two.app.request("/fail")).status, 400);
    assert.equal((await one.app.request("/ok")).status, 200);
    assert.equal((await two.app.request("/ok")).status, 200);
    assert.equal((await one.app.request("/ok")).status, 429);
  });
});
