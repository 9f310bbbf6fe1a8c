// Home and hashtag windows kept between writes (kept-windows.ts): reused while nothing is
// written; a post, an unfollow or a deletion since a read shows at the next read; and what ends
// with the clock alone (a mute) is judged per request, not kept.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { makeAccount, makeFollow, makeMute, makeStatus } from "../../storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../../storage/json-file/index.ts";
import type { Storage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { homeTimeline } from "./home.ts";
import { tagTimeline } from "./tag.ts";

const VIEWER = "1";
const AUTHOR = "2";

describe("services/timelines/kept-windows", () => {
  let dir: string;
  let storage: Storage;
  let ctx: ServiceContext;
  let now = new Date("2026-11-27T08:00:00Z");
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-kept-windows-"));
    storage = await openJsonFileStorage(dir);
    await storage.accounts.put(makeAccount({ id: VIEWER, username: "viewer" }));
    await storage.accounts.put(makeAccount({ id: AUTHOR, username: "author" }));
    await storage.follows.put(makeFollow({ id: "50", accountId: VIEWER, targetId: AUTHOR }));
    await storage.statuses.put(
      makeStatus({ id: "100", accountId: AUTHOR, visibility: "public", tags: ["wren"] }),
    );
    ctx = { storage, clock: { now: () => now } } as unknown as ServiceContext;
  });
  after(async () => {
    await storage?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const home = () => homeTimeline(ctx, VIEWER, { limit: 20 });
  const tag = () => tagTimeline(ctx, VIEWER, "wren", {}, { limit: 20 });
  const ids = (page: { status: { id: string } }[]) => page.map((e) => e.status.id);

  it("hands out the same resolved entries while nothing is written", async () => {
    const [first] = await home();
    assert.ok(first);
    assert.equal((await home())[0], first);
    const [tagged] = await tag();
    assert.ok(tagged);
    assert.equal((await tag())[0], tagged);
  });

  it("shows a post, an edit, a deletion and an unfollow made after a read at the next read", async () => {
    assert.deepEqual(ids(await home()), ["100"]);
    await storage.statuses.put(
      makeStatus({ id: "101", accountId: AUTHOR, visibility: "public", tags: ["wren"] }),
    );
    assert.deepEqual(ids(await home()), ["101", "100"]);
    assert.deepEqual(ids(await tag()), ["101", "100"]);
    const status = await storage.statuses.get("101");
    assert.ok(status);
    await storage.statuses.put({ ...status, tags: [] });
    assert.deepEqual(ids(await tag()), ["100"]);
    await storage.statuses.put({ ...status, deleted: true });
    assert.deepEqual(ids(await home()), ["100"]);
    await storage.follows.delete(VIEWER, AUTHOR);
    assert.deepEqual(ids(await home()), []);
    await storage.follows.put(makeFollow({ id: "51", accountId: VIEWER, targetId: AUTHOR }));
    assert.deepEqual(ids(await home()), ["100"]);
  });

  it("shows a muted author's statuses again once the mute ends, with no write", async () => {
    await storage.mutes.put(
      makeMute({
        id: "60",
        accountId: VIEWER,
        targetId: AUTHOR,
        expiresAt: new Date(now.getTime() + 60_000).toISOString(),
      }),
    );
    assert.deepEqual(ids(await home()), []);
    assert.deepEqual(ids(await tag()), []);
    now = new Date(now.getTime() + 120_000);
    assert.deepEqual(ids(await home()), ["100"]);
    assert.deepEqual(ids(await tag()), ["100"]);
  });
});
