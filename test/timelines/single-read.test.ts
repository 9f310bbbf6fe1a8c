// A timeline page reads each of its statuses once per request: the service resolves entries
// (and boosted originals) to filter them, and hydration takes those statuses as they are
// instead of reading them again (views loadResolvedViews, ADR 18).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { follow, getList, ids, MANY_REQUESTS, post, postStatus } from "./helpers.ts";

describe("timeline reads", () => {
  let server: TestServer;
  let viewer: TestUser;
  let author: TestUser;
  let booster: TestUser;
  const expected: string[] = [];
  /** Status ids asked of statuses.getMany during one request, with repeats. */
  let reads: string[] = [];

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    viewer = await createUserWithToken(server, "viewer");
    author = await createUserWithToken(server, "author");
    booster = await createUserWithToken(server, "booster");
    await follow(server, viewer.token, author.account);
    await follow(server, viewer.token, booster.account);
    for (let i = 0; i < 3; i++) {
      const { id } = await postStatus(server, author.token, { status: `post ${i}` });
      const boost = (await post(server, booster.token, `/api/v1/statuses/${id}/reblog`)) as {
        id: string;
      };
      expected.unshift(boost.id, id);
    }
    const statuses = server.wren.ctx.storage.statuses;
    const getMany = statuses.getMany.bind(statuses);
    statuses.getMany = (idList) => {
      reads.push(...idList);
      return getMany(idList);
    };
  });

  after(() => server.close());

  const readOnce = () => {
    const repeated = reads.filter((id, i) => reads.indexOf(id) !== i);
    assert.deepEqual(repeated, [], `statuses read more than once: ${JSON.stringify(reads)}`);
  };

  it("home: every status and boosted original is read once", async () => {
    reads = [];
    const page = await getList(server, "/api/v1/timelines/home", viewer.token);
    assert.deepEqual(ids(page), expected);
    assert.ok(reads.length > 0);
    readOnce();
  });

  it("an account's statuses: each boosted original is read once", async () => {
    reads = [];
    const page = await getList(
      server,
      `/api/v1/accounts/${booster.account.id}/statuses`,
      viewer.token,
    );
    assert.equal(page.body.length, 3);
    assert.ok(reads.length > 0);
    readOnce();
  });
});
