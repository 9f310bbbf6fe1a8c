// The instance-wide secrets (the OAuth pages' CSRF key): one value for every process and across
// restarts, on json-file and on PostgreSQL (two storages on one database as two processes).

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { systemClock } from "../../domain/clock.ts";
import { openJsonFileStorage } from "../../storage/json-file/index.ts";
import { openPostgresStorage } from "../../storage/postgres/index.ts";
import { createTempDatabase } from "../../storage/postgres/testing/temp-database.ts";
import { sharedSecret } from "./shared-secret.ts";

describe("shared secrets", () => {
  it("are made once and kept across restarts (json-file)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wren-secret-"));
    try {
      let storage = await openJsonFileStorage(dir);
      const first = await sharedSecret({ storage, clock: systemClock }, "oauth-csrf");
      assert.equal(first.length, 32);
      assert.deepEqual(await sharedSecret({ storage, clock: systemClock }, "oauth-csrf"), first);
      const other = await sharedSecret({ storage, clock: systemClock }, "something-else");
      assert.notDeepEqual(other, first);
      await storage.close();
      storage = await openJsonFileStorage(dir);
      assert.deepEqual(await sharedSecret({ storage, clock: systemClock }, "oauth-csrf"), first);
      await storage.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("are the same for two processes asking at once (postgres)", async () => {
    const database = await createTempDatabase();
    try {
      const one = await openPostgresStorage({ url: database.url, poolMax: 2 });
      const two = await openPostgresStorage({ url: database.url, poolMax: 2 });
      try {
        const [a, b] = await Promise.all([
          sharedSecret({ storage: one, clock: systemClock }, "oauth-csrf"),
          sharedSecret({ storage: two, clock: systemClock }, "oauth-csrf"),
        ]);
        assert.equal(a.length, 32);
        assert.deepEqual(a, b);
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    } finally {
      await database.drop();
    }
  });
});
