// Inbox load on a cluster (PostgreSQL, ADR 0057): two web processes accept signed Create(Note)s,
// each delivered twice at once (to the shared inbox and to alice's, through the round-robin
// balancer, so the copies reach both web processes), and a worker processing them is SIGKILLed
// mid-load; another worker takes over. Every activity answered 202 must end as one status, and
// notify alice once: the once-guard (the record's row as the lease), the gathered job
// completions and the rate limits' held units must lose nothing and act on nothing twice.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Sql } from "postgres";
import { connectPostgres } from "../../src/storage/postgres/connect.ts";
import { type FakeActor, type FakePeer, startFakePeer } from "../federation/fake-peer.ts";
import { createNote } from "../federation/inbox-helpers.ts";
import { eventually } from "../helpers/federation.ts";
import { type SeededUser, seedUsers } from "../helpers/wren-process.ts";
import { type Cluster, type ClusterProcess, startCluster } from "./cluster.ts";

const ACTIVITIES = 120;
const CONCURRENCY = 16;
/** The worker is killed once this many were accepted: it is then taking and finishing jobs. */
const KILL_AFTER = 40;

describe("inbox load on a cluster, a worker killed", { timeout: 240_000 }, () => {
  let cluster: Cluster;
  let peer: FakePeer;
  let sql: Sql;
  let alice: SeededUser;

  before(async () => {
    peer = await startFakePeer();
    // A killed worker's claims pass in seconds, not the default five minutes.
    cluster = await startCluster({ WREN_JOB_LEASE_SECONDS: "5" });
    sql = connectPostgres({ url: cluster.database.url, poolMax: 2 });
    [alice] = (await seedUsers(cluster.env.WREN_DATA_DIR as string, ["alice"], cluster.env)) as [
      SeededUser,
    ];
  });

  after(async () => {
    await sql?.end();
    await cluster?.close();
    await peer?.close();
  });

  it("stores each accepted note once and notifies its mention once", async () => {
    const [web1, web2, worker] = (await Promise.all([
      cluster.start("web"),
      cluster.start("web"),
      cluster.start("worker"),
    ])) as [ClusterProcess, ClusterProcess, ClusterProcess];
    cluster.balancer.setTargets([web1.url as string, web2.url as string]);
    const base = cluster.balancer.url;
    const aliceUri = `${base}/users/alice`;
    const actors: FakeActor[] = [];
    for (let i = 0; i < 4; i++) actors.push(await peer.actor(`sender${i}`));
    const notes = Array.from({ length: ACTIVITIES }, (_, i) =>
      createNote(peer, actors[i % actors.length] as FakeActor, {
        cc: [aliceUri],
        tag: [{ type: "Mention", href: aliceUri, name: `@alice@${new URL(base).host}` }],
        content: `<p>note ${i} for @alice</p>`,
      }),
    );

    const accepted = new Set<string>();
    let killed: Promise<unknown> | undefined;
    let next = 0;
    const sender = async () => {
      while (next < notes.length) {
        const { create, note } = notes[next++] as (typeof notes)[number];
        // Two copies at once: the balancer hands them to the two web processes in turn.
        const answers = await Promise.all(
          [`${base}/inbox`, `${aliceUri}/inbox`].map((url) =>
            peer.send(url, create).catch(() => undefined),
          ),
        );
        if (answers.some((answer) => answer?.status === 202)) {
          accepted.add(note.id as string);
          if (accepted.size === KILL_AFTER) killed = worker.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, sender));
    assert.equal(await killed, "SIGKILL");
    assert.equal(accepted.size, ACTIVITIES, "the web processes accepted every activity");
    await cluster.start("worker");

    const uris = [...accepted];
    await eventually(
      async () => {
        const rows = await sql<{ uri: string; n: string; mentions: string }[]>`
          select s.uri, count(distinct s.id) as n, count(m.id) as mentions
          from statuses s
          left join notifications m
            on m.status_id = s.id and m.type = 'mention' and m.account_id = ${alice.id}
          where s.uri = any(${sql.array(uris)}::text[])
          group by s.uri`;
        const stored = new Map(rows.map((r) => [r.uri, r]));
        assert.deepEqual(
          uris.filter((uri) => !stored.has(uri)),
          [],
          "accepted notes not stored yet",
        );
        assert.deepEqual(
          rows.filter((r) => r.n !== "1" || r.mentions !== "1").map((r) => r.uri),
          [],
          "a note stored twice, or its mention notified other than once (or not yet)",
        );
      },
      { timeout: 120_000 },
    );
  });
});
