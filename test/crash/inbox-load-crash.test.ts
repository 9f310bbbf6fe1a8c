// A crash under inbox load loses nothing accepted and acts on nothing twice (ADR 0049: queued
// inbox activities are lines of the job journal, their removal written lazily). A real
// `wren serve` receives signed Create(Note)s from several actors, many at once, and is SIGKILLed
// while it is still accepting and processing them. After a restart every activity it answered
// 202 must have its status, and no note may be stored twice.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readJobJournals } from "../../src/storage/json-file/job-journal.ts";
import { type FakeActor, type FakePeer, startFakePeer } from "../federation/fake-peer.ts";
import { createNote } from "../federation/inbox-helpers.ts";
import { eventually } from "../helpers/federation.ts";
import { freePort } from "../helpers/server.ts";
import {
  type SeededUser,
  seedUsers,
  spawnWren,
  type WrenProcess,
  withOfflineServices,
} from "../helpers/wren-process.ts";

const ACTIVITIES = 240;
const CONCURRENCY = 24;
/** The kill lands once this many were accepted: the queue is then both filling and draining. */
const KILL_AFTER = 90;

describe("a crash under inbox load", { timeout: 240_000 }, () => {
  let peer: FakePeer;
  let dataDir: string;
  let server: WrenProcess | undefined;
  before(async () => {
    peer = await startFakePeer();
    dataDir = await mkdtemp(join(tmpdir(), "wren-crash-inbox-"));
  });
  after(async () => {
    await server?.kill("SIGKILL");
    await peer.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps every accepted activity and stores each note once", async () => {
    const port = await freePort();
    const env = {
      WREN_PUBLIC_URL: `http://127.0.0.1:${port}`,
      WREN_ALLOW_PRIVATE_ADDRESSES: "true",
    };
    const [alice] = (await seedUsers(dataDir, ["alice"], env)) as [SeededUser];
    const aliceUri = `${env.WREN_PUBLIC_URL}/users/alice`;
    const actors: FakeActor[] = [];
    for (let i = 0; i < 4; i++) actors.push(await peer.actor(`sender${i}`));
    // Each note mentions alice (a Mention tag, as Mastodon sends), so it concerns someone here, is
    // stored and notifies her.
    const notes = Array.from({ length: ACTIVITIES }, (_, i) =>
      createNote(peer, actors[i % actors.length] as FakeActor, {
        cc: [aliceUri],
        tag: [{ type: "Mention", href: aliceUri, name: `@alice@127.0.0.1:${port}` }],
        content: `<p>note ${i} for @alice</p>`,
      }),
    );

    server = await spawnWren(dataDir, port, env);
    const running = server;
    const accepted = new Set<string>();
    let next = 0;
    const sender = async () => {
      while (next < notes.length) {
        const { create, note } = notes[next++] as (typeof notes)[number];
        const answer = await peer.send(`${running.url}/inbox`, create).catch(() => undefined);
        if (answer?.status === 202) {
          accepted.add(note.id as string);
          if (accepted.size === KILL_AFTER) void running.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, sender));
    assert.equal(await running.exited, "SIGKILL");
    assert.ok(accepted.size >= KILL_AFTER, `only ${accepted.size} accepted before the kill`);
    assert.ok(accepted.size < ACTIVITIES, "the kill came before the load ended");

    // Restarted, the server runs what it had queued; wait for its queue to drain.
    server = await spawnWren(dataDir, port, env);
    await eventually(
      async () => {
        const { jobs } = await readJobJournals(dataDir);
        const left = [...jobs.values()].filter((j) => j.type === "federation.task");
        assert.deepEqual(
          left.map((j) => j.lastError),
          [],
          "inbox tasks still queued (or failed)",
        );
      },
      { timeout: 120_000 },
    );
    // The mentions are notified by listeners of each stored note's event, jobs of their own that
    // may still be queued once the inbox tasks are done: wait for them through the API too.
    const restarted = server;
    await eventually(
      async () => {
        const mentioned = await mentionedUris(restarted.url, alice.token);
        const unnotified = [...accepted].filter((uri) => !mentioned.has(uri));
        assert.deepEqual(unnotified, [], "accepted notes whose mention is not notified yet");
      },
      { timeout: 120_000 },
    );
    await server.kill("SIGTERM");
    server = undefined;

    await withOfflineServices(dataDir, async (ctx) => {
      const uris: string[] = [];
      for (const actor of actors) {
        const account = await ctx.storage.accounts.findByUri(actor.id);
        assert.ok(account, `${actor.username} is known`);
        const statuses = await ctx.storage.statuses.listByAccount(account.id, { limit: 1_000 });
        assert.equal(await ctx.storage.statuses.countByAccount(account.id), statuses.length);
        uris.push(...statuses.map((s) => s.uri));
      }
      const missing = [...accepted].filter((uri) => !uris.includes(uri));
      assert.deepEqual(missing, [], "accepted activities lost by the crash");
      const twice = uris.filter((uri, i) => uris.indexOf(uri) !== i);
      assert.deepEqual(twice, [], "notes stored twice");
      // Answered or not, nothing was stored that was never sent.
      const sent = new Set(notes.map((n) => n.note.id as string));
      assert.ok(uris.every((uri) => sent.has(uri)));
      const notified = await ctx.storage.notifications.listFor(alice.id, { limit: 1_000 });
      const mentions = notified.filter((n) => n.type === "mention");
      assert.ok(mentions.length >= accepted.size, "each accepted note mentioned alice");
      assert.equal(
        new Set(mentions.map((n) => n.statusId)).size,
        mentions.length,
        "a note notified alice twice",
      );
    });
  });
});

/** The URIs of the statuses that mention notifications of the token's owner point at. */
async function mentionedUris(base: string, token: string): Promise<Set<string>> {
  const uris = new Set<string>();
  let maxId = "";
  for (;;) {
    const page = await fetch(
      `${base}/api/v1/notifications?types[]=mention&limit=80${maxId && `&max_id=${maxId}`}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    assert.equal(page.status, 200);
    const notifications = (await page.json()) as { id: string; status: { uri: string } }[];
    if (notifications.length === 0) return uris;
    for (const n of notifications) uris.add(n.status.uri);
    maxId = (notifications.at(-1) as { id: string }).id;
  }
}
