// An inbox activity whose handling fails on a storage error is retried, not dropped: the sender
// was answered 202 when the task was queued and will not send it again. Fedify re-enqueues a task
// whose listener throws (its inbox retry policy), so what matters is that storage failures reach
// the listener: the remote-actor lookup and the ingestion of posts, which take any failure of
// remote input for "nothing to act on", let them through.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Context } from "@fedify/fedify";
import { StorageUnavailableError } from "../../src/domain/errors.ts";
import { createWrenFederation } from "../../src/federation/federation.ts";
import { ensureRemoteAccount } from "../../src/federation/remote-actors.ts";
import { ingestObject } from "../../src/federation/remote-objects.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { WriteFaults } from "../../src/storage/json-file/index.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type MovableClock, movableClock } from "../polls/helpers.ts";
import { type FakePeer, startFakePeer } from "./fake-peer.ts";
import { activity, createNote, deliver, statusByUri } from "./inbox-helpers.ts";

describe("inbox: storage failures", () => {
  let server: TestServer;
  let peer: FakePeer;
  let alice: TestUser;
  let clock: MovableClock;
  let fctx: Context<ServiceContext>;
  const faults = new WriteFaults();

  before(async () => {
    clock = movableClock(new Date().toISOString());
    server = await startTestServer(
      { WREN_ALLOW_PRIVATE_ADDRESSES: "true" },
      { clock, writeFaults: faults },
    );
    peer = await startFakePeer();
    alice = await createUserWithToken(server, "alice", ["read", "write", "follow"]);
    const { federation } = createWrenFederation(server.wren.ctx, { allowPrivateAddress: true });
    fctx = federation.createContext(new URL(server.url), server.wren.ctx);
  });

  after(async () => {
    faults.clear();
    await server.close();
    await peer.close();
  });

  it("retries a queued Create that met a full disk until it is stored", async () => {
    const bob = await peer.actor("bob");
    await deliver(server, peer, activity(peer, bob, "Follow", { object: alice.account.uri }));
    const { create, note } = createNote(peer, bob, {
      to: [alice.account.uri],
      tag: [{ type: "Mention", href: alice.account.uri, name: "@alice" }],
    });
    const res = await peer.send(`${server.url}/inbox`, create);
    assert.equal(res.status, 202, await res.text());

    faults.failWith("ENOSPC");
    // The runner's own bookkeeping cannot be written either: its failure is expected here.
    await server.wren.jobs.runDue().catch(() => {});
    assert.ok(faults.refused > 0, "the fault struck");
    faults.clear();
    assert.equal(await statusByUri(server, note.id), undefined);

    // Fedify's inbox retry policy waits seconds to hours; an hour covers the first attempts.
    for (let i = 0; i < 12 && !(await statusByUri(server, note.id)); i++) {
      clock.advance(5 * 60_000);
      await server.wren.jobs.runDue();
    }
    const stored = await statusByUri(server, note.id);
    assert.ok(stored, "the retry stored the post");
    assert.deepEqual(stored.mentionIds, [alice.account.id]);
  });

  it("takes an actor record it cannot store for a storage failure, not an unreachable actor", async () => {
    const dan = await peer.actor("dan");
    faults.failWith("ENOSPC");
    await assert.rejects(ensureRemoteAccount(fctx, new URL(dan.id)), StorageUnavailableError);
    faults.clear();
    assert.equal((await ensureRemoteAccount(fctx, new URL(dan.id)))?.uri, dan.id);

    // A day later the record is stale: its refresh meets the full disk too.
    clock.advance(25 * 60 * 60_000);
    faults.failWith("ENOSPC");
    await assert.rejects(ensureRemoteAccount(fctx, new URL(dan.id)), StorageUnavailableError);
    faults.clear();
  });

  it("takes a post it cannot store for a storage failure, not a refused post", async () => {
    const eve = await peer.actor("eve");
    const author = await ensureRemoteAccount(fctx, new URL(eve.id));
    assert.ok(author);
    const { note } = createNote(peer, eve);
    peer.put(new URL(note.id).pathname, {
      "@context": "https://www.w3.org/ns/activitystreams",
      ...note,
    });
    faults.failWith("ENOSPC");
    await assert.rejects(ingestObject(fctx, new URL(note.id)), StorageUnavailableError);
    faults.clear();
    assert.equal((await ingestObject(fctx, new URL(note.id)))?.uri, note.id);
  });
});
