// The values kept per viewer (viewer-memo.ts): reused while nothing is written, and re-read after
// any write that changes them: a block, a mute (and its lapse, by the clock alone), a blocked
// server, a filter, a follow, an exclusive list, a followed tag.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { CustomFilter } from "../domain/filter.ts";
import {
  makeAccount,
  makeBlock,
  makeEdge,
  makeFollow,
  makeMute,
} from "../storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import type { ServiceContext } from "./context.ts";
import { viewerFilterRecords } from "./filters/viewer-filters.ts";
import { loadExclusions, OWN_SHUT_OUTS } from "./timelines/exclusions.ts";
import { EXCLUSIVE_LISTS } from "./timelines/exclusive-lists.ts";
import { FOLLOWED_TAGS } from "./timelines/followed-tags.ts";
import { HOME_AUTHORS } from "./timelines/home.ts";
import { keptForViewer, MAX_ITEMS, type ViewerPart } from "./viewer-memo.ts";

const VIEWER = "1";
const OTHER = "2";
const REMOTE = "3";
const T0 = Date.parse("2026-01-01T00:00:00.000Z");

function filter(id: string): CustomFilter {
  return {
    id,
    accountId: VIEWER,
    title: "spoilers",
    context: ["home", "public"],
    action: "hide",
    expiresAt: null,
    keywords: [{ id: `${id}0`, keyword: "spoiler", wholeWord: true }],
    statuses: [],
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
}

describe("services/viewer-memo", () => {
  let dir: string;
  let storage: Storage;
  let ctx: ServiceContext;
  let now = T0;
  let nextId = 100;
  const id = () => String(nextId++);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-viewer-memo-"));
    storage = await openJsonFileStorage(dir);
    await storage.accounts.put(makeAccount({ id: VIEWER, username: "viewer" }));
    await storage.accounts.put(makeAccount({ id: OTHER, username: "other" }));
    await storage.accounts.put(
      makeAccount({
        id: REMOTE,
        username: "far",
        domain: "far.example",
        uri: "https://far.example/users/far",
      }),
    );
    ctx = { storage, clock: { now: () => new Date(now) } } as unknown as ServiceContext;
  });
  after(async () => {
    await storage?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const excluded = async (accountId: string) =>
    (await loadExclusions(ctx, VIEWER, [accountId])).excludes(accountId);

  it("keeps a viewer's value across writes of other kinds, and reads it again after one of its kind", async () => {
    const first = await keptForViewer(ctx, OWN_SHUT_OUTS, VIEWER);
    assert.equal(await keptForViewer(ctx, OWN_SHUT_OUTS, VIEWER), first);
    // A favourite is an act, which the value does not read (ADR 0072).
    await storage.favourites.put(
      makeEdge({ id: id(), accountId: OTHER, targetId: "999" }) as never,
    );
    assert.equal(await keptForViewer(ctx, OWN_SHUT_OUTS, VIEWER), first);
    // Any write of relations moves their version, even one that leaves this value as it was.
    await storage.follows.put(makeFollow({ id: id(), accountId: OTHER, targetId: REMOTE }));
    assert.notEqual(await keptForViewer(ctx, OWN_SHUT_OUTS, VIEWER), first);
  });

  it("a block, a mute or a blocked server written after a read excludes at the next read", async () => {
    assert.equal(await excluded(OTHER), false);
    await storage.blocks.put(makeBlock({ id: id(), accountId: VIEWER, targetId: OTHER }));
    assert.equal(await excluded(OTHER), true);
    await storage.blocks.delete(VIEWER, OTHER);
    assert.equal(await excluded(OTHER), false);

    await storage.mutes.put(makeMute({ id: id(), accountId: VIEWER, targetId: OTHER }));
    assert.equal(await excluded(OTHER), true);
    await storage.mutes.delete(VIEWER, OTHER);
    assert.equal(await excluded(OTHER), false);

    assert.equal(await excluded(REMOTE), false);
    await storage.accountDomainBlocks.put(
      makeEdge({ id: id(), accountId: VIEWER, targetId: "far.example" }) as never,
    );
    assert.equal(await excluded(REMOTE), true);
    await storage.accountDomainBlocks.delete(VIEWER, "far.example");
    assert.equal(await excluded(REMOTE), false);
  });

  it("a kept timed mute lapses by the clock alone", async () => {
    await storage.mutes.put(
      makeMute({
        id: id(),
        accountId: VIEWER,
        targetId: OTHER,
        expiresAt: new Date(T0 + 60_000).toISOString(),
      }),
    );
    assert.equal(await excluded(OTHER), true);
    const kept = await keptForViewer(ctx, OWN_SHUT_OUTS, VIEWER);
    now = T0 + 120_000;
    assert.equal(await keptForViewer(ctx, OWN_SHUT_OUTS, VIEWER), kept, "nothing written");
    assert.equal(await excluded(OTHER), false);
    now = T0;
    await storage.mutes.delete(VIEWER, OTHER);
  });

  it("a filter, a follow, an exclusive list or a followed tag shows at the next read", async () => {
    assert.deepEqual(await viewerFilterRecords(ctx, VIEWER), []);
    await storage.filters.put(filter(id()));
    assert.equal((await viewerFilterRecords(ctx, VIEWER)).length, 1);

    assert.deepEqual((await keptForViewer(ctx, HOME_AUTHORS, VIEWER)).authors, [VIEWER]);
    await storage.follows.put(makeFollow({ id: id(), accountId: VIEWER, targetId: OTHER }));
    const home = await keptForViewer(ctx, HOME_AUTHORS, VIEWER);
    assert.deepEqual(home.authors, [VIEWER, OTHER]);
    assert.ok(home.byAuthor.has(OTHER));

    assert.deepEqual(await keptForViewer(ctx, EXCLUSIVE_LISTS, VIEWER), []);
    const listId = id();
    const list = {
      id: listId,
      accountId: VIEWER,
      title: "close",
      repliesPolicy: "list" as const,
      exclusive: false,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    await storage.lists.put(list);
    assert.deepEqual(await keptForViewer(ctx, EXCLUSIVE_LISTS, VIEWER), []);
    await storage.lists.put({ ...list, exclusive: true });
    assert.deepEqual(await keptForViewer(ctx, EXCLUSIVE_LISTS, VIEWER), [listId]);

    assert.deepEqual((await keptForViewer(ctx, FOLLOWED_TAGS, VIEWER)).tags, []);
    await storage.tagFollows.put(makeEdge({ id: id(), accountId: VIEWER, targetId: "wren" }));
    assert.ok((await keptForViewer(ctx, FOLLOWED_TAGS, VIEWER)).followed.has("wren"));
  });

  it("keeps no value read while a write landed, nor one larger than the bound", async () => {
    let reads = 0;
    const racing: ViewerPart<number> = {
      name: "racing",
      kinds: ["relations"],
      async read() {
        reads += 1;
        // A write lands while the value is being read: it may mix before and after.
        await storage.blocks.put(makeBlock({ id: id(), accountId: OTHER, targetId: REMOTE }));
        return reads;
      },
      size: () => 1,
    };
    assert.equal(await keptForViewer(ctx, racing, VIEWER), 1);
    assert.equal(await keptForViewer(ctx, racing, VIEWER), 2);

    let bigReads = 0;
    const big: ViewerPart<number> = {
      name: "big",
      kinds: ["relations"],
      read: async () => ++bigReads,
      size: () => MAX_ITEMS + 1,
    };
    await keptForViewer(ctx, big, VIEWER);
    await keptForViewer(ctx, big, VIEWER);
    assert.equal(bigReads, 2);
  });
});
