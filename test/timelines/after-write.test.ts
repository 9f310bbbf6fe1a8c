// A signed-in page right after a write (ADR 0072): what a page keeps between requests (statuses'
// shared parts, the viewer's flags and own records, timeline windows) is keyed by the versions of
// the kinds of records it reads. Each write of a kind a kept part reads is seen by the next page;
// a write of another kind (a marker, a notification, a token) keeps the part, which is the point
// of the kinds: before them, any write of any record dropped all of it.

import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { Status } from "../../src/domain/status.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { HOME_AUTHORS } from "../../src/services/timelines/home.ts";
import { keptWindows } from "../../src/services/timelines/kept-windows.ts";
import { keptForViewer } from "../../src/services/viewer-memo.ts";
import type { Storage } from "../../src/storage/ports.ts";
import { loadSharedParts } from "../../src/views/status-shared-parts.ts";
import { loadViewerFlags } from "../../src/views/viewer-flags.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, post } from "../statuses/helpers.ts";
import { putStatus } from "./helpers.ts";

describe("a signed-in page right after a write", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** The page rendered now (not a kept answer), as `user` sees it. */
  const page = (user: TestUser, path: string): Promise<Json[]> =>
    call(server as TestServer, "GET", path, {
      token: user.token,
      headers: { "cache-control": "no-cache" },
    });
  const home = (user: TestUser) => page(user, "/api/v1/timelines/home");
  const publicPage = (user: TestUser) => page(user, "/api/v1/timelines/public");
  const find = (list: Json[], id: string): Json => {
    const found = list.find((s: Json) => s.id === id);
    assert.ok(found, `status ${id} is on the page`);
    return found;
  };

  it("shows each write a kept part reads on the next page", async () => {
    server = await startTestServer();
    const s = server;
    const [alice, bob, carol, dave] = await createUsers(s, "alice", "bob", "carol", "dave");
    const as = (user: TestUser, method: string, path: string, json?: unknown) =>
      call(s, method, path, { token: user.token, ...(json !== undefined ? { json } : {}) });
    await as(alice, "POST", `/api/v1/accounts/${bob.account.id}/follow`);
    const hello = await post(s, bob, { status: "hello spoiler", visibility: "public" });
    const daves = await post(s, dave, { status: "from dave", visibility: "public" });
    // Every step reads both pages first, so that everything they keep is kept before the write.
    const prime = async () => {
      await home(alice);
      await home(alice);
      await publicPage(alice);
      await publicPage(alice);
    };
    /** Bob's status on alice's home page, itself or inside her boost of it. */
    const counted = async () => {
      const list = await home(alice);
      const boost = list.find((st: Json) => st.reblog?.id === hello.id);
      return boost ? boost.reblog : find(list, hello.id);
    };

    await prime();
    await as(carol, "POST", "/api/v1/markers", { home: { last_read_id: hello.id } });
    assert.equal((await counted()).favourites_count, 0);

    await prime();
    await as(carol, "POST", `/api/v1/statuses/${hello.id}/favourite`);
    assert.equal((await counted()).favourites_count, 1, "another's favourite (acts)");

    await prime();
    await as(carol, "POST", `/api/v1/statuses/${hello.id}/reblog`);
    assert.equal((await counted()).reblogs_count, 1, "another's boost (statuses)");

    await prime();
    await post(s, carol, { status: "a reply", in_reply_to_id: hello.id });
    assert.equal((await counted()).replies_count, 1, "another's reply (statuses)");

    await prime();
    await as(bob, "PATCH", "/api/v1/accounts/update_credentials", { display_name: "Bobby" });
    assert.equal((await counted()).account.display_name, "Bobby", "the author's name (accounts)");

    await prime();
    const followers = (await counted()).account.followers_count;
    await as(carol, "POST", `/api/v1/accounts/${bob.account.id}/follow`);
    assert.equal((await counted()).account.followers_count, followers + 1, "a follow's count");

    await prime();
    await as(alice, "POST", `/api/v1/statuses/${hello.id}/favourite`);
    await prime();
    await as(alice, "POST", `/api/v1/statuses/${hello.id}/bookmark`);
    const flagged = await counted();
    assert.equal(flagged.favourited, true, "the viewer's favourite (acts)");
    assert.equal(flagged.bookmarked, true, "the viewer's bookmark (acts)");

    await prime();
    await as(alice, "POST", `/api/v1/statuses/${hello.id}/reblog`);
    assert.equal((await counted()).reblogged, true, "the viewer's boost (statuses)");

    await prime();
    const fresh = await post(s, carol, { status: "new from carol", visibility: "public" });
    find(await publicPage(alice), fresh.id);

    await prime();
    await as(alice, "POST", `/api/v1/accounts/${carol.account.id}/mute`);
    const muted = await publicPage(alice);
    assert.ok(!muted.some((st: Json) => st.id === fresh.id), "the viewer's mute (relations)");

    await prime();
    assert.ok(!(await home(alice)).some((st: Json) => st.id === daves.id));
    await as(alice, "POST", `/api/v1/accounts/${dave.account.id}/follow`);
    find(await home(alice), daves.id);

    await prime();
    await as(alice, "POST", "/api/v2/filters", {
      title: "no spoilers",
      context: ["home", "public"],
      filter_action: "hide",
      keywords_attributes: [{ keyword: "spoiler" }],
    });
    const filtered = await home(alice);
    assert.ok(
      !filtered.some((st: Json) => st.id === hello.id || st.reblog?.id === hello.id),
      "a filter (relations)",
    );
  });

  it("keeps each part across writes of kinds it does not read", async () => {
    server = await startTestServer();
    const ctx = server.wren.ctx;
    const { storage } = ctx;
    const [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
    const status: Status = await putStatus(server, bob.account, { visibility: "public" });
    const edge = (accountId: string, targetId: string) => ({
      id: ctx.ids.next(),
      accountId,
      targetId,
      createdAt: ctx.clock.now().toISOString(),
    });
    const marker = (user: TestUser) =>
      storage.markers.put({
        accountId: user.account.id,
        timeline: "home",
        lastReadId: status.id,
        version: 0,
        updatedAt: ctx.clock.now().toISOString(),
      });

    // The viewer's flags: counted reads of the store.
    let flagReads = 0;
    const joined = {
      ...storage.joined,
      edges: ((...args: Parameters<Storage["joined"]["edges"]>) => {
        flagReads += 1;
        return storage.joined.edges(...args);
      }) as Storage["joined"]["edges"],
    };
    const counting = new Proxy(storage, {
      get: (target, key) => (key === "joined" ? joined : Reflect.get(target, key)),
    });
    const flagsCtx = { storage: counting } as unknown as ServiceContext;
    const flags = () => loadViewerFlags(flagsCtx, alice.account.id, [status]);

    // A window: counted listings.
    let listings = 0;
    const readWindow = keptWindows(10);
    const window = () =>
      readWindow(ctx, "a window", {
        list: async () => {
          listings += 1;
          return [];
        },
        resolve: async () => [],
      });

    const parts = async () => (await loadSharedParts(ctx, [status])).get(status.id);
    const authors = async () => keptForViewer(ctx, HOME_AUTHORS, alice.account.id);

    // Nothing left to run in the background (a job's write would move a kind kept below).
    await server.wren.jobs.runDue();
    await flags();
    await window();
    const kept = {
      parts: await parts(),
      authors: await authors(),
      flagReads,
      listings,
    };
    const assertKept = async (write: string) => {
      assert.equal(await parts(), kept.parts, `shared parts kept across ${write}`);
      assert.equal(await authors(), kept.authors, `home authors kept across ${write}`);
      await flags();
      assert.equal(flagReads, kept.flagReads, `flags kept across ${write}`);
      await window();
      assert.equal(listings, kept.listings, `window kept across ${write}`);
    };

    // Kinds no kept part reads.
    await marker(carol);
    await assertKept("another account's marker");
    await storage.notifications.put({
      id: ctx.ids.next(),
      accountId: bob.account.id,
      type: "mention",
      fromAccountId: carol.account.id,
      statusId: status.id,
      groupKey: `ungrouped-${ctx.ids.next()}`,
      createdAt: ctx.clock.now().toISOString(),
    });
    await assertKept("a notification");

    // Acts: the shared parts (counters) and the flags, not the viewer's follows nor windows.
    await storage.favourites.put({ ...edge(carol.account.id, status.id), uri: null });
    assert.notEqual(await parts(), kept.parts);
    assert.equal((await parts())?.favouritesCount, 1);
    // Only the counters were read again: the author's view is the one kept.
    assert.equal((await parts())?.account, kept.parts?.account);
    await flags();
    assert.equal(flagReads, kept.flagReads + 1);
    assert.equal(await authors(), kept.authors, "home authors kept across a favourite");
    await window();
    assert.equal(listings, kept.listings, "window kept across a favourite");

    // Relations: the viewer's follows (and the authors' counts), not the flags.
    kept.flagReads = flagReads;
    await storage.follows.put({
      ...edge(alice.account.id, carol.account.id),
      showReblogs: true,
      notify: false,
      languages: null,
      uri: null,
    });
    assert.ok((await authors()).byAuthor.has(carol.account.id));
    await flags();
    assert.equal(flagReads, kept.flagReads, "flags kept across a follow");

    // Statuses: the windows.
    const listed = listings;
    await putStatus(server, carol.account, { visibility: "public" });
    await window();
    assert.equal(listings, listed + 1);
  });
});
