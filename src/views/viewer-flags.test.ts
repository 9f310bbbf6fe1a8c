// The viewer's flags remembered between requests (viewer-flags.ts): asked of the store once per
// version, changed at the next read by a favourite, boost, bookmark, pin or conversation mute
// written since, and right for every status of a page when the memory starts afresh.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Status } from "../domain/status.ts";
import type { ServiceContext } from "../services/context.ts";
import { makeAccount, makeEdge, makeFavourite, makeStatus } from "../storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { loadViewerFlags, STATUSES } from "./viewer-flags.ts";

const VIEWER = "1";
const AUTHOR = "2";

describe("views/viewer-flags", () => {
  let dir: string;
  let storage: Storage;
  let ctx: ServiceContext;
  let edgeReads = 0;
  let nextId = 1000;
  const id = () => String(nextId++);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-viewer-flags-"));
    storage = await openJsonFileStorage(dir);
    await storage.accounts.put(makeAccount({ id: VIEWER, username: "viewer" }));
    await storage.accounts.put(makeAccount({ id: AUTHOR, username: "author" }));
    // The real storage, with its joined edge reads counted.
    const joined = {
      ...storage.joined,
      edges: ((accountId, questions) => {
        edgeReads += 1;
        return storage.joined.edges(accountId, questions);
      }) as Storage["joined"]["edges"],
    };
    const counted = new Proxy(storage, {
      get: (target, key) => (key === "joined" ? joined : Reflect.get(target, key)),
    });
    ctx = { storage: counted } as unknown as ServiceContext;
  });
  after(async () => {
    await storage?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const page = [
    makeStatus({ id: "100", accountId: AUTHOR, conversationId: "c100" }),
    makeStatus({ id: "101", accountId: VIEWER, conversationId: "c100" }),
  ];
  const flagsOf = async (statuses: readonly Status[] = page) => {
    const sets = await loadViewerFlags(ctx, VIEWER, statuses);
    return {
      favourited: [...sets.favourited],
      reblogged: [...sets.reblogged],
      bookmarked: [...sets.bookmarked],
      pinned: [...sets.pinned],
      muted: [...sets.mutedConversations],
    };
  };
  const none = { favourited: [], reblogged: [], bookmarked: [], pinned: [], muted: [] };

  it("asks the store once while nothing is written", async () => {
    edgeReads = 0;
    assert.deepEqual(await flagsOf(), none);
    assert.deepEqual(await flagsOf(), none);
    assert.equal(edgeReads, 1);
  });

  it("shows each kind of flag written after a read at the next read", async () => {
    await storage.favourites.put(makeFavourite({ id: id(), accountId: VIEWER, targetId: "100" }));
    assert.deepEqual((await flagsOf()).favourited, ["100"]);
    await storage.bookmarks.put(
      makeEdge({ id: id(), accountId: VIEWER, targetId: "100" }) as never,
    );
    assert.deepEqual((await flagsOf()).bookmarked, ["100"]);
    await storage.pins.put(makeEdge({ id: id(), accountId: VIEWER, targetId: "101" }) as never);
    assert.deepEqual((await flagsOf()).pinned, ["101"]);
    await storage.conversationMutes.put(
      makeEdge({ id: id(), accountId: VIEWER, targetId: "c100" }) as never,
    );
    assert.deepEqual((await flagsOf()).muted, ["c100"]);
    const boost = id();
    await storage.statuses.put(
      makeStatus({ id: boost, accountId: VIEWER, reblogOfId: "100", conversationId: boost }),
    );
    assert.deepEqual((await flagsOf()).reblogged, ["100"]);
    await storage.favourites.delete(VIEWER, "100");
    assert.deepEqual((await flagsOf()).favourited, []);
  });

  it("keeps every status of a page right when the memory starts afresh", async () => {
    await storage.favourites.put(makeFavourite({ id: id(), accountId: VIEWER, targetId: "100" }));
    assert.deepEqual((await flagsOf()).favourited, ["100"]);
    // Remembered "100" plus more than the memory holds: it is emptied while this page is read.
    const more = Array.from({ length: STATUSES }, (_, i) =>
      makeStatus({ id: String(5000 + i), accountId: AUTHOR, conversationId: "c5000" }),
    );
    assert.deepEqual((await flagsOf([page[0] as Status, ...more])).favourited, ["100"]);
    assert.deepEqual((await flagsOf()).favourited, ["100"]);
  });
});
