// Markers use optimistic concurrency: a write based on a version that changed before it could be
// saved is refused with 409 (Mastodon's StaleObjectError answer), never applied over the other
// one, and never silently lost: every write that answered 200 got its own version.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AppError } from "../../src/domain/errors.ts";
import { saveMarkers } from "../../src/services/markers/save-markers.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

const CONFLICT = { error: "Conflict during update, please try again" };

/**
 * Of two racing writes exactly one succeeds. Which one is not fixed: each reads the version it
 * builds on before queueing for the lock, and on PostgreSQL those reads can finish in any order.
 */
function oneWinner(results: PromiseSettledResult<unknown>[]): {
  winner: number;
  loser: PromiseRejectedResult;
} {
  assert.deepEqual(results.map((r) => r.status).sort(), ["fulfilled", "rejected"]);
  const winner = results.findIndex((r) => r.status === "fulfilled");
  return { winner, loser: results[1 - winner] as PromiseRejectedResult };
}

describe("concurrent marker writes", () => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  const post = (user: TestUser, lastReadId: string) =>
    server.request("/api/v1/markers", {
      method: "POST",
      token: user.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ home: { last_read_id: lastReadId } }),
    });

  async function homeMarker(user: TestUser) {
    const res = await server.request("/api/v1/markers?timeline[]=home", { token: user.token });
    return ((await res.json()) as Json).home;
  }

  it("refuses the second of two writes based on the same version", async () => {
    const ctx = server.wren.ctx;
    const accountId = alice.account.id;
    await saveMarkers(ctx, accountId, [{ timeline: "notifications", lastReadId: "10" }]);
    // Both start from version 0; the first to take the lock wins, the other is stale.
    const ids = ["11", "12"];
    const results = await Promise.allSettled(
      ids.map((id) => saveMarkers(ctx, accountId, [{ timeline: "notifications", lastReadId: id }])),
    );
    const { winner, loser } = oneWinner(results);
    const error = loser.reason;
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 409);
    assert.equal(error.message, CONFLICT.error);
    const saved = await ctx.storage.markers.get(accountId, "notifications");
    assert.equal(saved?.lastReadId, ids[winner]);
    assert.equal(saved?.version, 1);
  });

  it("applies nothing of a multi-timeline write when one timeline is stale", async () => {
    const ctx = server.wren.ctx;
    const bob = await createUserWithToken(server, "bob");
    const accountId = bob.account.id;
    const results = await Promise.allSettled([
      saveMarkers(ctx, accountId, [{ timeline: "notifications", lastReadId: "1" }]),
      saveMarkers(ctx, accountId, [
        { timeline: "home", lastReadId: "2" },
        { timeline: "notifications", lastReadId: "3" },
      ]),
    ]);
    // Nothing of the stale write is applied: the markers are the winner's alone.
    const { winner } = oneWinner(results);
    const home = await ctx.storage.markers.get(accountId, "home");
    const notifications = await ctx.storage.markers.get(accountId, "notifications");
    if (winner === 0) {
      assert.equal(home, undefined);
      assert.equal(notifications?.lastReadId, "1");
    } else {
      assert.equal(home?.lastReadId, "2");
      assert.equal(notifications?.lastReadId, "3");
    }
  });

  it("over HTTP: racing writes answer 200 or 409, and no 200 is lost", async () => {
    const carol = await createUserWithToken(server, "carol");
    let conflicts = 0;
    let successes = 0;
    let next = 1000;
    // Bursts of simultaneous requests; stop once a conflict has been seen (it needs real overlap).
    for (let burst = 0; burst < 20 && conflicts === 0; burst++) {
      const ids = Array.from({ length: 8 }, () => String(next++));
      const responses = await Promise.all(ids.map((id) => post(carol, id)));
      const versions: number[] = [];
      for (const [i, res] of responses.entries()) {
        const body: Json = await res.json();
        if (res.status === 409) {
          assert.deepEqual(body, CONFLICT);
          assertMatchesResponse("POST", "/api/v1/markers", 409, body);
          conflicts++;
        } else {
          assert.equal(res.status, 200, JSON.stringify(body));
          assert.equal(body.home.last_read_id, ids[i]);
          versions.push(body.home.version);
          successes++;
        }
      }
      // Every successful write got a version of its own: none overwrote another unseen.
      assert.equal(new Set(versions).size, versions.length);
      const marker = await homeMarker(carol);
      assert.equal(marker.version, successes - 1);
      assert.equal(marker.version, Math.max(...versions));
    }
    assert.ok(conflicts > 0, "expected at least one stale write among simultaneous requests");
  });

  it("clients that retry on 409 all get through, each with its own version", async () => {
    const dave = await createUserWithToken(server, "dave");
    const writers = 10;
    const answered = await Promise.all(
      Array.from({ length: writers }, async (_, i) => {
        for (let attempt = 0; attempt < 100; attempt++) {
          const res = await post(dave, String(5000 + i));
          const body: Json = await res.json();
          if (res.status === 200) return body.home.version as number;
          assert.equal(res.status, 409);
        }
        throw new Error("a writer never got through");
      }),
    );
    assert.deepEqual(
      [...answered].sort((a, b) => a - b),
      Array.from({ length: writers }, (_, i) => i),
    );
    assert.equal((await homeMarker(dave)).version, writers - 1);
  });
});
