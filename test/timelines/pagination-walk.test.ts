// Walks long timelines page by page, following the Link headers a client follows: `next`
// (older) to the end, then `prev` (newer) back to the top. Every status must come exactly once,
// strictly newest first, and nothing the viewer should not get may appear. Also pins down the
// window parameters: since_id (newest above), min_id (immediately above), max_id (below).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  assertNewestFirst,
  follow,
  getList,
  ids,
  MANY_REQUESTS,
  type Page,
  postStatus,
} from "./helpers.ts";

const TOTAL = 320;

interface Posted {
  id: string;
  author: "walker" | "ann" | "ben" | "cat";
  visibility: "public" | "unlisted" | "private";
}

async function walk(
  server: TestServer,
  first: string,
  token?: string,
): Promise<{ forward: string[]; backward: string[]; pages: number }> {
  const forward: string[] = [];
  let page: Page = await getList(server, first, token);
  let last: Page = page;
  let pages = 0;
  while (page.body.length > 0) {
    pages++;
    forward.push(...ids(page));
    last = page;
    assert.ok(page.next, "a non-empty page links to the next one");
    page = await getList(server, page.next, token);
  }
  // Past the end: an empty page without a Link header, as Mastodon answers.
  assert.equal(page.next, null);
  assert.equal(page.prev, null);

  // Back up from the oldest page through `prev` links until the top is reached.
  const above: string[][] = [];
  let back = last;
  for (;;) {
    assert.ok(back.prev, "a non-empty page links to the previous one");
    const newer = await getList(server, back.prev, token);
    if (newer.body.length === 0) break;
    above.unshift(ids(newer));
    back = newer;
  }
  return { forward, backward: [...above.flat(), ...ids(last)], pages };
}

describe("pagination walk", () => {
  let server: TestServer;
  let walker: TestUser;
  let ann: TestUser;
  const posted: Posted[] = [];

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    walker = await createUserWithToken(server, "walker");
    ann = await createUserWithToken(server, "ann");
    const ben = await createUserWithToken(server, "ben");
    const cat = await createUserWithToken(server, "cat");
    await follow(server, walker.token, ann.account);
    await follow(server, walker.token, ben.account);
    const authors = { walker, ann, ben, cat } as const;
    const names = ["walker", "ann", "ben", "cat"] as const;
    for (let i = 0; i < TOTAL; i++) {
      const author = names[i % names.length] as Posted["author"];
      const visibility = i % 7 === 3 ? "private" : i % 5 === 1 ? "unlisted" : "public";
      const status = await postStatus(server, authors[author].token, {
        status: `status ${i} #walk`,
        visibility,
      });
      posted.push({ id: status.id, author, visibility });
    }
  });

  after(() => server.close());

  /** The expected ids, newest first. */
  const expected = (keep: (p: Posted) => boolean) =>
    posted
      .filter(keep)
      .map((p) => p.id)
      .reverse();

  const cases: [string, string, () => string | undefined, (p: Posted) => boolean][] = [
    ["home", "/api/v1/timelines/home?limit=40", () => walker.token, (p) => p.author !== "cat"],
    [
      "public, anonymous",
      "/api/v1/timelines/public?limit=40",
      () => undefined,
      (p) => p.visibility === "public",
    ],
    [
      "public local, odd page size",
      "/api/v1/timelines/public?local=true&limit=17",
      () => walker.token,
      (p) => p.visibility === "public",
    ],
    [
      "hashtag",
      "/api/v1/timelines/tag/walk?limit=33",
      () => undefined,
      (p) => p.visibility === "public",
    ],
  ];
  for (const [name, path, token, keep] of cases) {
    it(`walks the ${name} timeline both ways`, async () => {
      const want = expected(keep);
      assert.ok(want.length > 150, "a long timeline");
      const result = await walk(server, path, token());
      assertNewestFirst(result.forward, `${name} forward`);
      assert.deepEqual(result.forward, want);
      assert.deepEqual(result.backward, want);
      const size = Number(new URL(path, server.url).searchParams.get("limit"));
      assert.equal(result.pages, Math.ceil(want.length / size));
    });
  }

  it("walks an account's statuses as a follower and as a stranger", async () => {
    const path = `/api/v1/accounts/${ann.account.id}/statuses?limit=40`;
    const asFollower = await walk(server, path, walker.token);
    assert.deepEqual(
      asFollower.forward,
      expected((p) => p.author === "ann"),
    );
    assert.deepEqual(asFollower.backward, asFollower.forward);
    const asAnonymous = await walk(server, path);
    assert.deepEqual(
      asAnonymous.forward,
      expected((p) => p.author === "ann" && p.visibility !== "private"),
    );
    assert.deepEqual(asAnonymous.backward, asAnonymous.forward);
  });

  it("keeps the other parameters in the Link header", async () => {
    const page = await getList(server, "/api/v1/timelines/public?local=true&limit=5");
    const next = new URL(page.next as string, server.url);
    assert.equal(next.searchParams.get("local"), "true");
    assert.equal(next.searchParams.get("limit"), "5");
    assert.equal(next.searchParams.get("max_id"), page.body[4]?.id);
    const prev = new URL(page.prev as string, server.url);
    assert.equal(prev.searchParams.get("min_id"), page.body[0]?.id);
    assert.equal(prev.searchParams.get("max_id"), null);
  });

  it("since_id gives the newest statuses above it, min_id the ones right above it", async () => {
    const home = expected((p) => p.author !== "cat");
    const pivot = home[100] as string;
    const since = await getList(
      server,
      `/api/v1/timelines/home?since_id=${pivot}&limit=5`,
      walker.token,
    );
    assert.deepEqual(ids(since), home.slice(0, 5));
    const min = await getList(
      server,
      `/api/v1/timelines/home?min_id=${pivot}&limit=5`,
      walker.token,
    );
    assert.deepEqual(ids(min), home.slice(95, 100));
    const max = await getList(
      server,
      `/api/v1/timelines/home?max_id=${pivot}&limit=5`,
      walker.token,
    );
    assert.deepEqual(ids(max), home.slice(101, 106));
    // Both bounds: the window between them, newest first.
    const upper = home[90] as string;
    const between = await getList(
      server,
      `/api/v1/timelines/home?max_id=${upper}&since_id=${pivot}&limit=40`,
      walker.token,
    );
    assert.deepEqual(ids(between), home.slice(91, 100));
    const betweenMin = await getList(
      server,
      `/api/v1/timelines/home?max_id=${upper}&min_id=${pivot}&limit=3`,
      walker.token,
    );
    assert.deepEqual(ids(betweenMin), home.slice(97, 100));
    // The same on an account's statuses and the public timeline.
    const pub = expected((p) => p.visibility === "public");
    const pubPivot = pub[50] as string;
    const pubMin = await getList(server, `/api/v1/timelines/public?min_id=${pubPivot}&limit=4`);
    assert.deepEqual(ids(pubMin), pub.slice(46, 50));
    const annAll = expected((p) => p.author === "ann");
    const annMin = await getList(
      server,
      `/api/v1/accounts/${ann.account.id}/statuses?min_id=${annAll[30]}&limit=4`,
      walker.token,
    );
    assert.deepEqual(ids(annMin), annAll.slice(26, 30));
  });

  it("uses Mastodon's default and largest page sizes", async () => {
    const byDefault = await getList(server, "/api/v1/timelines/public");
    assert.equal(byDefault.body.length, 20);
    const tooMany = await getList(server, "/api/v1/timelines/home?limit=500", walker.token);
    assert.equal(tooMany.body.length, 40);
  });

  it("reads blank window parameters as absent, as Mastodon does", async () => {
    const plain = await getList(server, "/api/v1/timelines/home", walker.token);
    const blank = await getList(
      server,
      "/api/v1/timelines/home?max_id=&since_id=&min_id=&limit=",
      walker.token,
    );
    assert.deepEqual(ids(blank), ids(plain));
  });
});
