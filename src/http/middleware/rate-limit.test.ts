// Rate limits where several processes share the storage (PostgreSQL): two apps on two storages
// of one database count one caller's requests together, and a success-only limit spends only
// on successes wherever they happen. (One process on json-file counts in memory: the HTTP tests
// of the limits cover that.)

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import type { Clock } from "../../domain/clock.ts";
import { openJsonFileStorage } from "../../storage/json-file/index.ts";
import type { Storage } from "../../storage/ports.ts";
import { connectPostgres } from "../../storage/postgres/connect.ts";
import { openPostgresStorage } from "../../storage/postgres/index.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../storage/postgres/testing/temp-database.ts";
import type { HttpEnv } from "../env.ts";
import { type RateLimitOptions, rateLimit, rateLimitsInTurn } from "./rate-limit.ts";

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

  it("counts a large limit ahead, a success-only one included: the shared row runs ahead", async () => {
    // Every request sent a statement (two for a success-only limit: a look, then the count);
    // now a count may take a sixteenth of what is left and answer the next ones (ADR 0057).
    const used = async (key: string) => {
      const sql = connectPostgres({ url: database.url, poolMax: 1 });
      try {
        const [row] = await sql<{ used: string }[]>`
          select used from coordination_counters where key like ${`%${key}%`}`;
        return Number(row?.used);
      } finally {
        await sql.end();
      }
    };
    for (const countSuccessOnly of [false, true]) {
      const name = countSuccessOnly ? "test-ahead-sender" : "test-ahead";
      const [one] = apps({
        name,
        requests: 1000,
        windowSeconds: 60,
        key: () => "ip:ahead",
        countSuccessOnly,
      });
      assert.ok(one);
      for (let i = 0; i < 5; i++) assert.equal((await one.app.request("/ok")).status, 200);
      // One unit, then a sixteenth of the 999 left: 63 counted for 5 requests.
      assert.equal(await used(name), 63);
    }
  });

  it("counts two limits in turn in one call, answering as the limits one after the other", async () => {
    const limits: RateLimitOptions[] = [
      { name: "test-token", requests: 3, windowSeconds: 60, key: () => "token:1" },
      {
        name: "test-account",
        requests: 3,
        windowSeconds: 120,
        key: (c) => c.req.header("x-account") ?? null,
      },
    ];
    const start = Date.parse("2026-04-01T12:00:00.000Z");
    /** Status and rate-limit headers of a run of requests, the clock moved as told. */
    async function run(storage: Pick<Storage, "coordination">) {
      at = start;
      const app = new Hono<HttpEnv>();
      app.onError((error, c) => c.json({ error: error.message }, 429));
      app.use(...rateLimitsInTurn(limits, { storage: storage as Storage, clock }).handlers);
      app.get("/ok", (c) => c.text("ok"));
      const seen: string[] = [];
      for (const [account, moveMs] of [
        ["a", 0],
        [null, 0],
        ["a", 0],
        // The token's limit refuses: the account's is not counted.
        ["a", 0],
        // The token's window ends, the account's runs on with 2 counted.
        ["a", 60_000],
        ["a", 0],
      ] as const) {
        at += moveMs;
        const res = await app.request("/ok", account ? { headers: { "x-account": account } } : {});
        const h = (name: string) => res.headers.get(`X-RateLimit-${name}`);
        seen.push(`${res.status} ${h("Limit")} ${h("Remaining")} ${h("Reset")}`);
      }
      return seen;
    }
    const shared = await run(storages[0] as Storage);
    assert.deepEqual(shared, [
      // A tie: the account's limit, checked last, stands.
      "200 3 2 2026-04-01T12:02:00.000Z",
      "200 3 1 2026-04-01T12:01:00.000Z",
      "200 3 0 2026-04-01T12:01:00.000Z",
      "429 3 0 2026-04-01T12:01:00.000Z",
      "200 3 0 2026-04-01T12:02:00.000Z",
      "429 3 0 2026-04-01T12:02:00.000Z",
    ]);
    // The same as each limit on its own, in this process's memory (json-file's coordination).
    const dir = await mkdtemp(join(tmpdir(), "wren-rate-limit-"));
    const owned = await openJsonFileStorage(dir);
    try {
      assert.deepEqual(await run(owned), shared);
    } finally {
      await owned.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
