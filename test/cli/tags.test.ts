// `wren tag list|show|allow|deny|set` through a running server's admin socket: the operator's
// decisions are the ones the admin API and the hashtag timeline then follow.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { reviewIdOf } from "../../src/domain/trend-review.ts";
import { call } from "../graph/helpers.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { postStatus } from "../timelines/helpers.ts";
import { runWren } from "./run-wren.ts";

describe("wren tag commands", () => {
  let server: TestServer;
  let env: Record<string, string>;
  let mod: TestUser;

  before(async () => {
    server = await startTestServer();
    env = { WREN_DATA_DIR: server.dataDir };
    mod = await createUserWithToken(server, "mod", ["read", "write", "admin:read"], {
      role: "moderator",
    });
    await postStatus(server, mod.token, { status: "#Cats" });
  });
  after(() => server.close());

  it("allows and denies a hashtag for the trends, and shows it", async () => {
    const shown = await runWren(["tag", "show", "#Cats"], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, "cats\ttrendable=yes\tusable=yes\tlistable=yes\t-\n");
    const denied = await runWren(["tag", "deny", "cats"], env);
    assert.equal(denied.code, 0, denied.stderr);
    assert.match(denied.stdout, /^cats\ttrendable=no\tusable=yes\tlistable=yes\treviewed /);
    const list = await runWren(["tag", "list"], env);
    assert.match(list.stdout, /^cats\ttrendable=no\t/);
    assert.equal((await runWren(["tag", "list", "--pending"], env)).stdout, "");
    const allowed = await runWren(["tag", "allow", "cats"], env);
    assert.match(allowed.stdout, /^cats\ttrendable=yes\t/);
    const api = await call(
      server,
      "GET",
      `/api/v1/admin/tags/${reviewIdOf("tag", "cats")}`,
      mod.token,
    );
    assert.equal(api.body.trendable, true);
    assert.equal(api.body.requires_review, false);
  });

  it("makes a hashtag unusable and unlisted", async () => {
    const set = await runWren(["tag", "set", "cats", "--usable", "no", "--listable", "no"], env);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /^cats\ttrendable=yes\tusable=no\tlistable=no\t/);
    assert.deepEqual((await call(server, "GET", "/api/v1/timelines/tag/cats")).body, []);
    const bad = await runWren(["tag", "set", "cats", "--usable", "maybe"], env);
    assert.equal(bad.code, 2);
    const notTag = await runWren(["tag", "allow", "no such"], env);
    assert.equal(notTag.code, 1);
    assert.match(notTag.stderr, /Not a hashtag/);
  });
});
