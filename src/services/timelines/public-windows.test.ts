// The public timeline's windows kept between writes (public-windows.ts): reused while nothing is
// written, and a status posted, edited or deleted since a read shows at the next read.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { makeAccount, makeStatus } from "../../storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../../storage/json-file/index.ts";
import type { Storage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { publicTimeline } from "./public.ts";
import { readPublicWindow } from "./public-windows.ts";

const AUTHOR = "1";

describe("services/timelines/public-windows", () => {
  let dir: string;
  let storage: Storage;
  let ctx: ServiceContext;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-public-windows-"));
    storage = await openJsonFileStorage(dir);
    await storage.accounts.put(makeAccount({ id: AUTHOR, username: "author" }));
    await storage.statuses.put(makeStatus({ id: "100", accountId: AUTHOR, visibility: "public" }));
    ctx = { storage, clock: { now: () => new Date() } } as unknown as ServiceContext;
  });
  after(async () => {
    await storage?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ids = async () =>
    (await publicTimeline(ctx, null, {}, { limit: 20 })).map((e) => e.status.id);

  it("hands out the same window while nothing is written", async () => {
    const window = () =>
      readPublicWindow(ctx, { origin: "all" }, { limit: 5 }, { withReplies: false });
    const first = await window();
    assert.equal(await window(), first);
  });

  it("shows a status posted, made private or deleted after a read at the next read", async () => {
    assert.deepEqual(await ids(), ["100"]);
    await storage.statuses.put(makeStatus({ id: "101", accountId: AUTHOR, visibility: "public" }));
    assert.deepEqual(await ids(), ["101", "100"]);
    const status = await storage.statuses.get("101");
    assert.ok(status);
    await storage.statuses.put({ ...status, visibility: "unlisted" });
    assert.deepEqual(await ids(), ["100"]);
    await storage.statuses.put({ ...status, deleted: true });
    assert.deepEqual(await ids(), ["100"]);
    await storage.statuses.put({ ...status, visibility: "public" });
    assert.deepEqual(await ids(), ["101", "100"]);
  });
});
