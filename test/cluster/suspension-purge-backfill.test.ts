// Two Wren processes on one PostgreSQL database that start together on an instance whose remote
// suspensions predate their deletion jobs: one of them walks the accounts and adds the jobs, the
// other waits for it and adds none (suspension-purge-backfill.ts).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  SUSPENSION_PURGE_JOB,
  suspensionPurgeJobId,
} from "../../src/services/accounts/suspension-expiry.ts";
import {
  BACKFILL_DONE_KEY,
  backfillSuspensionPurges,
} from "../../src/services/accounts/suspension-purge-backfill.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../src/storage/postgres/testing/temp-database.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { movableClock } from "../polls/helpers.ts";

const DAY = 24 * 3600_000;

describe("remote suspensions' deletion jobs added by two processes at once", () => {
  const clock = movableClock("2030-01-01T00:00:00.000Z");
  let database: TempDatabase;
  let one: TestServer;
  let two: TestServer;

  before(async () => {
    database = await createTempDatabase();
    const env = { WREN_STORAGE: "postgres", WREN_DATABASE_URL: database.url };
    one = await startTestServer(env, { clock });
    two = await startTestServer(env, { clock });
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  it("adds each missing job once, whichever process walks", async () => {
    const ctx = one.wren.ctx;
    const suspendedAt = new Date(clock.now().getTime() - 5 * DAY).toISOString();
    const accounts = Array.from({ length: 30 }, (_, i) =>
      remoteAccountRecord(one, `old${i}`, "old.example", {
        suspended: true,
        suspendedAt,
        suspensionOrigin: "local",
      }),
    );
    for (const account of accounts) await ctx.storage.accounts.put(account);
    await ctx.storage.kv.delete(BACKFILL_DONE_KEY);

    const added = await Promise.all([
      backfillSuspensionPurges(one.wren.ctx),
      backfillSuspensionPurges(two.wren.ctx),
    ]);
    assert.deepEqual(
      added.sort((a, b) => a - b),
      [0, accounts.length],
    );
    for (const account of accounts) {
      const job = await ctx.storage.jobs.get(suspensionPurgeJobId(account.id, suspendedAt));
      assert.equal(job?.type, SUSPENSION_PURGE_JOB);
      assert.equal(job?.attempts, 0);
      assert.equal(Date.parse(job?.runAt ?? ""), Date.parse(suspendedAt) + 30 * DAY);
    }
  });
});
