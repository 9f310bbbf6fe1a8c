import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ServiceContext } from "../services/context.ts";
import { makeAccount, makeFavourite, makeStatus } from "../storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { loadSharedParts } from "./status-shared-parts.ts";

const AUTHOR = "1";
const FAN = "2";

describe("views/status-shared-parts", () => {
  let dir: string;
  let storage: Storage;
  let ctx: ServiceContext;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-shared-parts-"));
    storage = await openJsonFileStorage(dir);
    await storage.accounts.put(
      makeAccount({ id: AUTHOR, username: "author", displayName: "author" }),
    );
    await storage.accounts.put(makeAccount({ id: FAN, username: "fan" }));
    await storage.statuses.put(makeStatus({ id: "100", accountId: AUTHOR }));
    ctx = { storage } as unknown as ServiceContext;
  });
  after(async () => {
    await storage?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const read = async () => {
    const status = await storage.statuses.get("100");
    assert.ok(status);
    return (await loadSharedParts(ctx, [status])).get("100");
  };

  it("keeps a status's parts while nothing changes, and rebuilds them after any write", async () => {
    const first = await read();
    assert.equal(first?.favouritesCount, 0);
    assert.equal(first?.account?.account.displayName, "author");
    // Nothing written since: the very same parts are reused.
    assert.equal(await read(), first);

    // A write to another record (a favourite) changes what the status shows: counted at once.
    await storage.favourites.put(makeFavourite({ id: "500", accountId: FAN, targetId: "100" }));
    const counted = await read();
    assert.notEqual(counted, first);
    assert.equal(counted?.favouritesCount, 1);

    // The author's record changes: their new name shows at once.
    const author = await storage.accounts.get(AUTHOR);
    assert.ok(author);
    await storage.accounts.put({ ...author, displayName: "Renamed" });
    assert.equal((await read())?.account?.account.displayName, "Renamed");
  });

  it("never pairs parts with another record of the same status", async () => {
    const kept = await read();
    // A record of the same id that is not the stored one (as a re-read on PostgreSQL may be):
    // its parts are built for it, not taken from the memo.
    const stored = await storage.statuses.get("100");
    assert.ok(stored);
    const copy = { ...stored };
    const parts = (await loadSharedParts(ctx, [copy])).get("100");
    assert.notEqual(parts, kept);
    assert.deepEqual(parts, kept);
  });

  it("leaves nothing stale behind when a write lands while parts are read", async () => {
    const stored = await storage.statuses.get("100");
    assert.ok(stored);
    const counted = (await read())?.favouritesCount ?? 0;
    // A write lands while the parts are read: the next read shows it.
    const reading = loadSharedParts(ctx, [stored]);
    await storage.favourites.put(makeFavourite({ id: "501", accountId: AUTHOR, targetId: "100" }));
    const during = (await reading).get("100");
    const next = (await loadSharedParts(ctx, [stored])).get("100");
    assert.notEqual(next, during);
    assert.equal(next?.favouritesCount, counted + 1);
    assert.equal(next, (await loadSharedParts(ctx, [stored])).get("100"));
  });
});
