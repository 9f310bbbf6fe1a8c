// The instance's VAPID pair: made once, a valid P-256 pair, kept across restarts (json-file),
// and the same for two processes asking at once (two storages on one PostgreSQL database).

import assert from "node:assert/strict";
import { createECDH } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { systemClock } from "../../domain/clock.ts";
import { openJsonFileStorage } from "../../storage/json-file/index.ts";
import { twoProcessesOnOneDatabase } from "../../storage/postgres/testing/hooks.ts";
import { vapidKeys } from "./vapid-keys.ts";

describe("VAPID keys", () => {
  it("are a P-256 pair, made once and kept across restarts (json-file)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wren-vapid-"));
    try {
      let storage = await openJsonFileStorage(dir);
      const first = await vapidKeys({ storage, clock: systemClock });
      // The private key gives the public one: a pair, in the uncompressed form apps expect.
      const curve = createECDH("prime256v1");
      curve.setPrivateKey(Buffer.from(first.privateKey, "base64url"));
      assert.equal(curve.getPublicKey("base64url"), first.publicKey);
      assert.equal(Buffer.from(first.publicKey, "base64url").length, 65);
      await storage.close();
      storage = await openJsonFileStorage(dir);
      assert.deepEqual(await vapidKeys({ storage, clock: systemClock }), first);
      await storage.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe("on PostgreSQL", () => {
    const processes = twoProcessesOnOneDatabase(2);

    it("are the same for two processes asking at once", async () => {
      const [a, b] = await Promise.all([
        vapidKeys({ storage: processes.a, clock: systemClock }),
        vapidKeys({ storage: processes.b, clock: systemClock }),
      ]);
      assert.deepEqual(a, b);
      const stored = await processes.a.kv.get(["wren", "vapid"]);
      assert.deepEqual(stored?.value, a);
    });
  });
});
