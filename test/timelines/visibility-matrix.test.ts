// The visibility matrix: who sees a status of each visibility, on every surface that shows
// statuses. Alice posts a public thread root and four replies to it (public, unlisted,
// private, direct), each mentioning Mia and Max, all tagged #matrix. Fiona follows Alice, Max
// follows Alice and is mentioned, Mia is mentioned without following, Sam is a stranger.
//
// Mastodon's rules, written out as the expected table below:
// - public: everyone, on every surface;
// - unlisted: everyone who opens it or the profile, but never the public or hashtag timelines;
// - private: the author, followers and mentioned accounts;
// - direct: the author and mentioned accounts only;
// - home holds the author's own statuses and those of followed accounts that the viewer may see
//   (a direct message reaches the home of a mentioned follower, not of a mentioned stranger).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { follow, getList, postStatus } from "./helpers.ts";

type Label = "root" | "public" | "unlisted" | "private" | "direct";
type ViewerName =
  | "author"
  | "follower"
  | "mentioned"
  | "mentionedFollower"
  | "stranger"
  | "anonymous";
type Surface = "status" | "context" | "account" | "home" | "publicAll" | "publicLocal" | "tag";

interface Context {
  ancestors: { id: string }[];
  descendants: { id: string }[];
}

const ALL: Label[] = ["root", "public", "unlisted", "private", "direct"];
const OPEN: Label[] = ["root", "public", "unlisted"];
const FOLLOWED: Label[] = ["root", "public", "unlisted", "private"];
const LISTED: Label[] = ["root", "public"];

/** For `status` and `context` the root is left out (it is the thread being opened). */
const EXPECTED: Record<ViewerName, Record<Surface, Label[] | 401>> = {
  author: {
    status: ALL,
    context: ALL,
    account: ALL,
    home: ALL,
    publicAll: LISTED,
    publicLocal: LISTED,
    tag: LISTED,
  },
  follower: {
    status: FOLLOWED,
    context: FOLLOWED,
    account: FOLLOWED,
    home: FOLLOWED,
    publicAll: LISTED,
    publicLocal: LISTED,
    tag: LISTED,
  },
  mentioned: {
    status: ALL,
    context: ALL,
    account: ALL,
    home: [],
    publicAll: LISTED,
    publicLocal: LISTED,
    tag: LISTED,
  },
  mentionedFollower: {
    status: ALL,
    context: ALL,
    account: ALL,
    home: ALL,
    publicAll: LISTED,
    publicLocal: LISTED,
    tag: LISTED,
  },
  stranger: {
    status: OPEN,
    context: OPEN,
    account: OPEN,
    home: [],
    publicAll: LISTED,
    publicLocal: LISTED,
    tag: LISTED,
  },
  anonymous: {
    status: OPEN,
    context: OPEN,
    account: OPEN,
    home: 401,
    publicAll: LISTED,
    publicLocal: LISTED,
    tag: LISTED,
  },
};

describe("visibility matrix", () => {
  let server: TestServer;
  const users = {} as Record<Exclude<ViewerName, "anonymous">, TestUser>;
  const statuses = {} as Record<Label, string>;
  const labelOf = new Map<string, Label>();

  before(async () => {
    server = await startTestServer();
    users.author = await createUserWithToken(server, "alice");
    users.follower = await createUserWithToken(server, "fiona");
    users.mentioned = await createUserWithToken(server, "mia");
    users.mentionedFollower = await createUserWithToken(server, "max");
    users.stranger = await createUserWithToken(server, "sam");
    await follow(server, users.follower.token, users.author.account);
    await follow(server, users.mentionedFollower.token, users.author.account);

    const alice = users.author.token;
    const root = await postStatus(server, alice, { status: "#matrix root" });
    statuses.root = root.id;
    for (const visibility of ["public", "unlisted", "private", "direct"] as const) {
      const reply = await postStatus(server, alice, {
        status: `@mia @max ${visibility} #matrix`,
        visibility,
        in_reply_to_id: root.id,
      });
      assert.deepEqual(
        (reply.mentions as { id: string }[]).map((m) => m.id).sort(),
        [users.mentioned.account.id, users.mentionedFollower.account.id].sort(),
      );
      statuses[visibility] = reply.id;
    }
    for (const label of ALL) labelOf.set(statuses[label], label);
  });

  after(() => server.close());

  const tokenOf = (viewer: ViewerName) =>
    viewer === "anonymous" ? undefined : users[viewer].token;

  /** The labels of Alice's statuses in a list, in list order. */
  const labels = (list: { id: string }[]) =>
    list.flatMap((s) => {
      const label = labelOf.get(s.id);
      return label ? [label] : [];
    });

  /** Expected labels in newest-first order (statuses were made in ALL's order). */
  const newestFirst = (expected: Label[]) => [...expected].reverse();

  for (const viewer of Object.keys(EXPECTED) as ViewerName[]) {
    describe(viewer, () => {
      it("GET /api/v1/statuses/:id", async () => {
        const visible = EXPECTED[viewer].status as Label[];
        for (const label of ALL) {
          const path = `/api/v1/statuses/${statuses[label]}`;
          const token = tokenOf(viewer);
          const res = await server.request(path, token ? { token } : {});
          const body = (await res.json()) as { id?: string };
          const expected = visible.includes(label) ? 200 : 404;
          assert.equal(res.status, expected, `${viewer} opening the ${label} status`);
          assertMatchesResponse("GET", path, res.status, body);
          if (expected === 200) assert.equal(body.id, statuses[label]);
        }
      });

      it("GET /api/v1/statuses/:id/context", async () => {
        const path = `/api/v1/statuses/${statuses.root}/context`;
        const token = tokenOf(viewer);
        const res = await server.request(path, token ? { token } : {});
        const body = (await res.json()) as Context;
        assert.equal(res.status, 200, JSON.stringify(body));
        assertMatchesResponse("GET", path, 200, body);
        const expected = (EXPECTED[viewer].context as Label[]).filter((l) => l !== "root");
        assert.deepEqual(labels(body.descendants), expected, `${viewer}: descendants`);
        assert.deepEqual(body.ancestors, []);
        // From a reply the viewer may see, the root is its ancestor.
        const reply = statuses.public;
        const up = await server.request(
          `/api/v1/statuses/${reply}/context`,
          token ? { token } : {},
        );
        assert.equal(up.status, 200);
        assert.deepEqual(labels(((await up.json()) as Context).ancestors), ["root"]);
      });

      it("GET /api/v1/accounts/:id/statuses", async () => {
        const path = `/api/v1/accounts/${users.author.account.id}/statuses`;
        const page = await getList(server, path, tokenOf(viewer));
        assert.deepEqual(labels(page.body), newestFirst(EXPECTED[viewer].account as Label[]));
      });

      it("GET /api/v1/timelines/home", async () => {
        const expected = EXPECTED[viewer].home;
        if (expected === 401) {
          const res = await server.request("/api/v1/timelines/home");
          assert.equal(res.status, 401);
          assert.deepEqual(await res.json(), { error: "The access token is invalid" });
          return;
        }
        const page = await getList(server, "/api/v1/timelines/home", tokenOf(viewer));
        assert.deepEqual(labels(page.body), newestFirst(expected));
        // Nothing else is there: only Alice posted.
        assert.equal(page.body.length, expected.length);
      });

      for (const [surface, path] of [
        ["publicAll", "/api/v1/timelines/public"],
        ["publicLocal", "/api/v1/timelines/public?local=true"],
        ["tag", "/api/v1/timelines/tag/matrix"],
      ] as const) {
        it(`GET ${path}`, async () => {
          const page = await getList(server, path, tokenOf(viewer));
          assert.deepEqual(labels(page.body), newestFirst(EXPECTED[viewer][surface] as Label[]));
          assert.ok(page.body.every((s) => s.visibility === "public"));
        });
      }
    });
  }
});
