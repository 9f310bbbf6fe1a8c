// The two-id schedule of a recurring job on a storage shared by several processes (PostgreSQL):
// a process starting while another finishes a run must not remove the successor that run put.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Clock } from "../../domain/clock.ts";
import type { Storage } from "../../storage/ports.ts";
import { openPostgresStorage } from "../../storage/postgres/index.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../storage/postgres/testing/temp-database.ts";
import type { ServiceContext } from "../context.ts";
import { ensureRecurringScheduled, type RecurringJob, scheduleNextRun } from "./recurring-job.ts";

const SPEC: RecurringJob = {
  type: "test.recurring",
  intervalMs: 3600_000,
  ids: ["rec-a", "rec-b"],
};

describe("recurring jobs on a shared storage", () => {
  let database: TempDatabase;
  let storage: Storage;
  const now = new Date("2026-11-26T12:00:00.000Z");
  const clock: Clock = { now: () => now };

  before(async () => {
    database = await createTempDatabase();
    storage = await openPostgresStorage({ url: database.url, poolMax: 2 });
  });
  after(async () => {
    await storage.close();
    await database.drop();
  });

  it("keeps the successor a run under way elsewhere has put", async () => {
    const ctx = { storage, clock } as unknown as ServiceContext;
    await ensureRecurringScheduled(ctx, SPEC);
    const first = await storage.jobs.get("rec-a");
    assert.ok(first);
    // The run falls due and another process runs it: it puts its successor, then completes.
    const due = { ...first, runAt: new Date(now.getTime() - 1000).toISOString() };
    await storage.jobs.put(due);
    await scheduleNextRun(ctx, SPEC, due);
    // Meanwhile this process starts.
    await ensureRecurringScheduled(ctx, SPEC);
    await storage.jobs.delete("rec-a");
    assert.ok(await storage.jobs.get("rec-b"), "the next run is still scheduled");
  });
});
