// Streaming across processes on PostgreSQL: two `wren serve` web processes on one database; a
// WebSocket connected to process B hears a post written through process A (A signals it with
// NOTIFY on wren_streaming, B's hub hears it and renders it for its viewer), and a server-sent
// events stream on A hears a post written through B.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Json } from "../graph/helpers.ts";
import { openEventStream, openWebSocket } from "../helpers/streaming.ts";
import { type SeededUser, seedUsers } from "../helpers/wren-process.ts";
import { type Cluster, type ClusterProcess, startCluster } from "./cluster.ts";

async function post(web: ClusterProcess, user: SeededUser, text: string): Promise<Json> {
  const res = await fetch(`${web.url}/api/v1/statuses`, {
    method: "POST",
    headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
    body: JSON.stringify({ status: text }),
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

describe("streaming across web processes on one database", { timeout: 120_000 }, () => {
  let cluster: Cluster;
  let webA: ClusterProcess;
  let webB: ClusterProcess;
  let alice: SeededUser;
  let bob: SeededUser;

  before(async () => {
    cluster = await startCluster();
    [alice, bob] = (await seedUsers(
      cluster.env.WREN_DATA_DIR as string,
      ["alice", "bob"],
      cluster.env,
    )) as [SeededUser, SeededUser];
    [webA, webB] = await Promise.all([cluster.start("web"), cluster.start("web")]);
    const follow = await fetch(`${webA.url}/api/v1/accounts/${bob.id}/follow`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice.token}` },
    });
    assert.equal(follow.status, 200);
  });
  after(() => cluster?.close());

  it("delivers a post written through one process to streams on the other", async () => {
    const onB = await openWebSocket(webB.url as string, {
      token: alice.token,
      query: { stream: "user" },
    });
    const onA = await openEventStream(webA.url as string, "/api/v1/streaming/public", bob.token);
    try {
      const throughA = await post(webA, bob, "Written through A");
      const heard = await onB.next();
      assert.equal(heard.event, "update");
      assert.deepEqual(heard.stream, ["user"]);
      assert.equal((heard.json as Json).id, throughA.id);
      assert.equal((heard.json as Json).account.id, bob.id);
      assert.equal(((await onA.next()).json as Json).id, throughA.id);

      const throughB = await post(webB, alice, "Written through B");
      const public_ = await onA.next();
      assert.equal(public_.event, "update");
      assert.equal((public_.json as Json).id, throughB.id);
      assert.equal(((await onB.next()).json as Json).id, throughB.id, "alice's own post at home");
    } finally {
      await onB.close();
      await onA.close();
    }
  });
});
