// The domain blocks each process keeps (domain-blocks.ts, blocksByDomain): a block written or
// lifted applies to the next question at once in the process that wrote it (json-file), and in
// another process sharing the PostgreSQL database once its signal arrives, though the first
// process had already kept the list without it.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { systemClock } from "../../domain/clock.ts";
import { openJsonFileStorage } from "../../storage/json-file/index.ts";
import type { Storage } from "../../storage/ports.ts";
import { eventually, twoProcessesOnOneDatabase } from "../../storage/postgres/testing/hooks.ts";
import type { ServiceContext } from "../context.ts";
import { isDomainBlocked, rejectsMedia } from "./domain-blocks.ts";

const contextOf = (storage: Storage) =>
  ({
    storage,
    clock: systemClock,
    settings: { domain: "wren.example", federationMode: "blocklist" },
  }) as unknown as ServiceContext;

const block = (domain: string, severity: "suspend" | "silence", rejectMedia = false) => ({
  key: ["wren", "domainBlock", domain],
  value: {
    id: "1",
    domain,
    severity,
    rejectMedia,
    rejectReports: false,
    privateComment: null,
    publicComment: null,
    obfuscate: false,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
  },
  expiresAt: null,
});

describe("domain blocks kept per process", () => {
  it("follow this process's writes at once (json-file)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wren-kept-blocks-"));
    const storage = await openJsonFileStorage(dir);
    try {
      const ctx = contextOf(storage);
      assert.equal(await isDomainBlocked(ctx, "a.evil.example"), false);
      await storage.kv.set(block("evil.example", "suspend"));
      assert.equal(await isDomainBlocked(ctx, "a.evil.example"), true);
      assert.equal(await isDomainBlocked(ctx, "good.example"), false);
      await storage.kv.set(block("evil.example", "silence", true));
      assert.equal(await isDomainBlocked(ctx, "a.evil.example"), false);
      assert.equal(await rejectsMedia(ctx, "a.evil.example"), true);
      await storage.kv.delete(["wren", "domainBlock", "evil.example"]);
      assert.equal(await rejectsMedia(ctx, "a.evil.example"), false);
    } finally {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe("on PostgreSQL", () => {
    const processes = twoProcessesOnOneDatabase(2);

    it("follow another process's writes", async () => {
      const a = contextOf(processes.a);
      const b = contextOf(processes.b);
      // b keeps the list without the block, then a writes it.
      assert.equal(await isDomainBlocked(b, "evil.example"), false);
      await processes.a.kv.set(block("evil.example", "suspend"));
      assert.equal(await isDomainBlocked(a, "evil.example"), true);
      await eventually(
        () => isDomainBlocked(b, "evil.example"),
        (blocked) => blocked,
      );
      await processes.a.kv.delete(["wren", "domainBlock", "evil.example"]);
      await eventually(
        () => isDomainBlocked(b, "evil.example"),
        (blocked) => !blocked,
      );
    });
  });
});
