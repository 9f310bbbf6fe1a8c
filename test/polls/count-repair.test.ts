// A kill between a vote's two writes (the vote edge, then the poll with its counts) leaves the
// poll file one vote behind. The API recounts, but the file itself must be right again after
// the next start: here the poll file is put back as it was before the vote, with the vote edge
// kept, which is exactly what such a kill leaves on disk.

import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { getPoll, postPoll, vote } from "./helpers.ts";

describe("poll counts after a kill between the vote and the poll", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
  });
  after(() => server.close());

  it("are rewritten into the poll file at the next start", async () => {
    const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 3600 });
    const file = join(server.dataDir, "polls", `${poll.id}.json`);
    await vote(server, bob, poll.id, [0]);
    const beforeVote = await readFile(file);
    await vote(server, carol, poll.id, [1]);

    await server.stop();
    // The vote edge of carol is on disk, the poll file is from before it.
    await writeFile(file, beforeVote);
    assert.equal(JSON.parse(beforeVote.toString()).votesCount, 1);
    await server.start();

    const stored = JSON.parse(await readFile(file, "utf8"));
    assert.equal(stored.votesCount, 2);
    assert.equal(stored.votersCount, 2);
    assert.deepEqual(
      stored.options.map((o: { votesCount: number }) => o.votesCount),
      [1, 1],
    );
    const served = await getPoll(server, alice, poll.id);
    assert.equal(served.votes_count, 2);
  });
});
