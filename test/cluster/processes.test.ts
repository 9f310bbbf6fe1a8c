// Wren as a cluster: two web processes and two workers, real `wren serve` children on one
// PostgreSQL database, behind one public address. What one process writes the others read at
// once; every job runs once, whichever worker takes it; a worker killed mid-delivery leaves the
// delivery to the other; idempotency keys and rate limits hold across the web processes; and a
// web process killed right after a status is committed still gets its Create delivered; a token
// revoked anywhere is refused by every web process; a signed-in answer kept by one web process
// gives way to a write through another.
// The test itself opens the database too, as a third process would, to seed and inspect.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Sql } from "postgres";
import { FEDERATION_TASK_JOB } from "../../src/federation/message-queue.ts";
import { hashSecret } from "../../src/services/auth/secrets.ts";
import { EVENT_JOB, EVENT_LEASE_GROUP } from "../../src/services/events.ts";
import { connectPostgres } from "../../src/storage/postgres/connect.ts";
import {
  type Delivery,
  type RecordingPeer,
  startRecordingPeer,
} from "../federation/recording-peer.ts";
import { eventually } from "../helpers/federation.ts";
import { type SeededUser, seedUsers, withOfflineServices } from "../helpers/wren-process.ts";
import { type Cluster, type ClusterProcess, startCluster } from "./cluster.ts";
import { killAfterStatusPut } from "./faults.ts";
import { pidWithLocalPort } from "./socket-owner.ts";

interface StatusJson {
  id: string;
  uri: string;
  content: string;
}

function call(
  base: string,
  token: string,
  method: "GET" | "POST",
  path: string,
  body?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

/** The status of a token's verify_credentials on one web process (its body is not read). */
async function credentialsStatus(web: ClusterProcess, token: string): Promise<number> {
  const res = await call(web.url as string, token, "GET", "/api/v1/accounts/verify_credentials");
  await res.body?.cancel();
  return res.status;
}

async function ok<T>(answer: Promise<Response>): Promise<T> {
  const res = await answer;
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text) as T;
}

function post(web: ClusterProcess, user: SeededUser, text: string): Promise<StatusJson> {
  return ok(
    call(web.url as string, user.token, "POST", "/api/v1/statuses", {
      status: text,
      visibility: "public",
    }),
  );
}

/** The Creates the peer received for the status `uri`. */
function createsOf(peer: RecordingPeer, uri: string): Delivery[] {
  return peer.deliveries.filter((d) => {
    const object = d.activity.object as { id?: string } | undefined;
    return d.activity.type === "Create" && object?.id === uri;
  });
}

/**
 * Waits until no delivery or event job is left (done, none due later): after that nothing more
 * can reach the peer, so counting its deliveries says "exactly once", not "once so far".
 */
async function settled(sql: Sql): Promise<void> {
  await eventually(
    async () => {
      const [row] = await sql<{ n: string }[]>`
        select count(*) as n from jobs
        where data->>'type' in (${FEDERATION_TASK_JOB}, ${EVENT_JOB}) and failed_at is null`;
      assert.equal(row?.n, "0", "delivery or event jobs still pending");
    },
    { timeout: 30_000 },
  );
}

describe("a cluster of web and worker processes on one database", { timeout: 120_000 }, () => {
  let cluster: Cluster;
  let peer: RecordingPeer;
  let sql: Sql;
  let web1: ClusterProcess;
  let web2: ClusterProcess;
  let workers: ClusterProcess[];
  let alice: SeededUser;
  let bob: SeededUser;
  /** Only the rate limit test calls as carol: her budget is all its own. */
  let carol: SeededUser;

  before(async () => {
    peer = await startRecordingPeer();
    // A killed worker's claims pass in seconds, not the default five minutes.
    // Signed-in answers kept 15 s: longer than a test waits for another process's write to show.
    cluster = await startCluster({
      WREN_JOB_LEASE_SECONDS: "5",
      WREN_DELIVERY_RETRY_SECONDS: "1",
      WREN_SIGNED_IN_CACHE_SECONDS: "15",
    });
    sql = connectPostgres({ url: cluster.database.url, poolMax: 2 });
    [alice, bob, carol] = (await seedUsers(
      cluster.env.WREN_DATA_DIR as string,
      ["alice", "bob", "carol"],
      cluster.env,
    )) as [SeededUser, SeededUser, SeededUser];
    // A follower of alice on the peer: every public status of hers goes there as a Create.
    await withOfflineServices(
      cluster.env.WREN_DATA_DIR as string,
      async (ctx) => {
        const fan = await peer.storeAccount(ctx, "fan");
        await ctx.storage.follows.put({
          id: ctx.ids.next(),
          accountId: fan.id,
          targetId: alice.id,
          createdAt: ctx.clock.now().toISOString(),
          showReblogs: true,
          notify: false,
          languages: null,
          uri: `${fan.uri}#follows/1`,
        });
      },
      undefined,
      cluster.env,
    );
    [web1, web2, ...workers] = await Promise.all([
      cluster.start("web"),
      cluster.start("web"),
      cluster.start("worker"),
      cluster.start("worker"),
    ]);
    cluster.balancer.setTargets([web1.url as string, web2.url as string]);
  });

  after(async () => {
    await sql?.end();
    await cluster?.close();
    await peer?.close();
  });

  it("reads a status posted through one web process through the other at once", async () => {
    const posted = await post(web1, alice, "written through the first web process");
    const other = web2.url as string;
    const read = await ok<StatusJson>(
      call(other, bob.token, "GET", `/api/v1/statuses/${posted.id}`),
    );
    assert.equal(read.uri, posted.uri);
    const home = await ok<StatusJson[]>(call(other, alice.token, "GET", "/api/v1/timelines/home"));
    assert.equal(home[0]?.id, posted.id, "first on the poster's home timeline");
    const local = await ok<StatusJson[]>(
      call(other, bob.token, "GET", "/api/v1/timelines/public?local=true"),
    );
    assert.equal(local[0]?.id, posted.id, "first on the local timeline");
  });

  it("delivers each Create exactly once, whichever web process took the post", async () => {
    const webs = [web1, web2];
    const posted = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(webs[i % 2] as ClusterProcess, alice, `post ${i}`)),
    );
    await eventually(
      () => {
        const missing = posted.filter((s) => createsOf(peer, s.uri).length === 0);
        assert.deepEqual(missing, [], "Creates not delivered yet");
      },
      { timeout: 30_000 },
    );
    await settled(sql);
    for (const status of posted) {
      assert.equal(createsOf(peer, status.uri).length, 1, `one Create of ${status.uri}`);
    }
  });

  it("leaves the delivery of a worker killed mid-delivery to the other worker", async () => {
    peer.hold();
    const status = await post(web2, alice, "delivered although its worker died");
    const held = await eventually(() => {
      const first = peer.held[0];
      assert.ok(first, "no delivery arrived yet");
      return first;
    });
    const pids = workers.map((w) => w.pid);
    const sender = await pidWithLocalPort(held.remotePort, pids);
    const [dying, survivor] = sender === pids[0] ? workers : [...workers].reverse();
    assert.equal(await dying?.kill("SIGKILL"), "SIGKILL");
    // The peer saw the sender hang up: the killed worker's attempt cannot count as delivered.
    await eventually(() => assert.equal(held.hungUp, true));
    peer.release();
    await eventually(() => assert.equal(createsOf(peer, status.uri).length, 1), {
      timeout: 30_000,
    });
    await settled(sql);
    assert.equal(createsOf(peer, status.uri).length, 1, "delivered once, by the survivor");
    assert.ok(
      peer.attempts.some((a) => a.status === 0),
      "the killed worker's attempt was cut off",
    );
    workers = [survivor as ClusterProcess];
  });

  it("makes one status of one Idempotency-Key sent to both web processes at once", async () => {
    const key = "the-same-key-twice";
    const send = (web: ClusterProcess) =>
      ok<StatusJson>(
        call(
          web.url as string,
          bob.token,
          "POST",
          "/api/v1/statuses",
          { status: "posted once, asked twice" },
          { "idempotency-key": key },
        ),
      );
    const [first, second] = await Promise.all([send(web1), send(web2)]);
    assert.equal(first.id, second.id);
    const [row] = await sql<{ n: string }[]>`
      select count(*) as n from statuses
      where account_id = ${bob.id} and data->>'text' = ${"posted once, asked twice"}`;
    assert.equal(row?.n, "1");
  });

  it("shows a block and a bookmark written through one web process in the other's signed-in reads", async () => {
    // The other process keeps bob's blocks and his flags between writes (viewer-memo.ts,
    // viewer-flags.ts): read once there first, so what it kept is what the writes must replace.
    const posted = await post(web1, alice, "to be bookmarked, then blocked");
    const other = web2.url as string;
    const publicIds = async () =>
      (
        await ok<StatusJson[]>(call(other, bob.token, "GET", "/api/v1/timelines/public?limit=40"))
      ).map((s) => s.id);
    const bookmarked = async () =>
      (
        await ok<{ bookmarked: boolean }>(
          call(other, bob.token, "GET", `/api/v1/statuses/${posted.id}`),
        )
      ).bookmarked;
    await eventually(async () => assert.ok((await publicIds()).includes(posted.id)));
    assert.equal(await bookmarked(), false);

    await ok(call(web1.url as string, bob.token, "POST", `/api/v1/statuses/${posted.id}/bookmark`));
    // Seen by the other process once the write's notification has reached it.
    await eventually(async () => assert.equal(await bookmarked(), true));

    await ok(call(web1.url as string, bob.token, "POST", `/api/v1/accounts/${alice.id}/block`));
    await eventually(async () => assert.ok(!(await publicIds()).includes(posted.id)));
    await ok(call(web1.url as string, bob.token, "POST", `/api/v1/accounts/${alice.id}/unblock`));
    await eventually(async () => assert.ok((await publicIds()).includes(posted.id)));
  });

  it("drops a signed-in answer kept in one web process for a write through the other", async () => {
    // Each web process keeps whole signed-in answers per token and storage version (ADR 60):
    // alice's home and bob's view of her status are asked twice on the second process, so the
    // second answers are kept ones, which the writes through the first must replace.
    const other = web2.url as string;
    const homeIds = async () =>
      (await ok<StatusJson[]>(call(other, alice.token, "GET", "/api/v1/timelines/home"))).map(
        (s) => s.id,
      );
    const first = await post(web1, alice, "kept on the other process");
    await eventually(async () => assert.equal((await homeIds())[0], first.id));
    assert.equal((await homeIds())[0], first.id);
    const favourited = async () =>
      (
        await ok<{ favourited: boolean }>(
          call(other, bob.token, "GET", `/api/v1/statuses/${first.id}`),
        )
      ).favourited;
    assert.equal(await favourited(), false);
    assert.equal(await favourited(), false);

    // Seen once the write's notification has reached the other process: well before the 15 s
    // the kept answers would otherwise live.
    const soon = { timeout: 10_000 };
    const second = await post(web1, alice, "posted after the answer was kept");
    await eventually(async () => assert.equal((await homeIds())[0], second.id), soon);
    await ok(call(web1.url as string, bob.token, "POST", `/api/v1/statuses/${first.id}/favourite`));
    await eventually(async () => assert.equal(await favourited(), true), soon);
  });

  it("refuses a token revoked by another process in both web processes", async () => {
    // Each web process keeps a token's holder between writes (authenticate-token.ts): both use
    // dave's token first, so what they kept is what the revocation must replace.
    const [dave] = (await seedUsers(
      cluster.env.WREN_DATA_DIR as string,
      ["dave"],
      cluster.env,
    )) as [SeededUser];
    const statusOn = (web: ClusterProcess) => credentialsStatus(web, dave.token);
    await eventually(async () =>
      assert.deepEqual([await statusOn(web1), await statusOn(web2)], [200, 200]),
    );

    // Revoked by a third process, as `wren` commands and the workers write.
    await withOfflineServices(
      cluster.env.WREN_DATA_DIR as string,
      async (ctx) => {
        const token = await ctx.storage.tokens.findByTokenHash(hashSecret(dave.token));
        assert.ok(token);
        await ctx.storage.tokens.put({ ...token, revokedAt: ctx.clock.now().toISOString() });
      },
      undefined,
      cluster.env,
    );
    // Refused by each once the write's notification has reached it.
    await eventually(async () =>
      assert.deepEqual([await statusOn(web1), await statusOn(web2)], [401, 401]),
    );
  });

  it("counts one caller's requests to both web processes against one rate limit", async () => {
    const limit = 6;
    const limited = await Promise.all([
      cluster.start("web", { WREN_RATE_LIMIT_REQUESTS: String(limit) }),
      cluster.start("web", { WREN_RATE_LIMIT_REQUESTS: String(limit) }),
    ]);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < limit + 2; i++) {
        statuses.push(await credentialsStatus(limited[i % 2] as ClusterProcess, carol.token));
      }
      assert.deepEqual(statuses, [...Array(limit).fill(200), 429, 429]);
    } finally {
      await Promise.all(limited.map((w) => w.kill("SIGKILL")));
    }
  });

  it("delivers the Create of a status whose web process was killed right after storing it", async () => {
    // Its recorded event (the Create still to queue) is left to the workers after 5 s.
    const doomed = await cluster.start("web", {
      WREN_EVENT_LEASE_SECONDS: "5",
      ...killAfterStatusPut(),
    });
    const text = "stored just before the crash";
    await assert.rejects(post(doomed, alice, text), "the kill cut the answer off");
    assert.equal(await doomed.kill("SIGKILL"), "SIGKILL");
    const rows = await sql<{ uri: string }[]>`
      select data->>'uri' as uri from statuses
      where account_id = ${alice.id} and data->>'text' = ${text}`;
    assert.equal(rows.length, 1, "the status was committed before the crash");
    const uri = (rows[0] as { uri: string }).uri;
    assert.equal(createsOf(peer, uri).length, 0, "nothing was delivered before the crash");
    const [leased] = await sql<{ n: string }[]>`
      select count(*) as n from jobs where grp = ${EVENT_LEASE_GROUP}`;
    assert.equal(leased?.n, "1", "the crash came before the listeners: the event is still leased");
    await eventually(() => assert.equal(createsOf(peer, uri).length, 1), { timeout: 30_000 });
    await settled(sql);
    assert.equal(createsOf(peer, uri).length, 1, "delivered once");
  });
});
