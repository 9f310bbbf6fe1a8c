// Federated actions reach the streams of the receiving server as local ones do: bob (B) posts,
// replies to alice (A), boosts her post, edits and deletes; alice's user stream on A gets each,
// in order, with A's own ids, and a followers-only post never reaches the public stream of
// another user of A.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Json } from "../graph/helpers.ts";
import type { TestUser } from "../helpers/accounts.ts";
import { createUserWithToken } from "../helpers/accounts.ts";
import {
  api,
  followRemote,
  type Instance,
  resolveStatus,
  startAliceAndBob,
  type TestFederation,
} from "../helpers/federation.ts";
import { assertMatchesSchema } from "../helpers/openapi.ts";
import { openEventStream, openWebSocket, type StreamEvent } from "../helpers/streaming.ts";

describe("streaming federated actions", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  let erin: TestUser;
  let bobOnA: Json;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
    erin = await createUserWithToken(a, "erin");
    bobOnA = await followRemote(a, alice, b, bob);
  });
  after(() => federation.close());

  it("tells alice's streams of bob's post, reply, boost, edit and delete, in order", async () => {
    const ws = await openWebSocket(a.url, { token: alice.token, query: { stream: "user" } });
    const sse = await openEventStream(a.url, "/api/v1/streaming/user", alice.token);
    const others = await openWebSocket(a.url, {
      token: erin.token,
      query: { stream: "public:remote" },
    });
    const streams = [ws, sse] as const;
    const nextOnBoth = async () => {
      const [one, two] = await Promise.all(streams.map((s) => s.next()));
      assert.deepEqual(
        [two?.event, two?.payload],
        [one?.event, one?.payload],
        "both transports tell the same",
      );
      return one as StreamEvent;
    };
    try {
      const hidden = await api(b, bob.token, "POST", "/api/v1/statuses", {
        status: "Only for my followers",
        visibility: "private",
      });
      const first = await nextOnBoth();
      assert.equal(first.event, "update");
      assert.equal((first.json as Json).uri, hidden.uri);
      assert.equal((first.json as Json).account.id, bobOnA.id);

      const open = await api(b, bob.token, "POST", "/api/v1/statuses", { status: "Hello from B" });
      const update = await nextOnBoth();
      assert.equal(update.event, "update");
      assertMatchesSchema(update.json, "Status");
      const openOnA = update.json as Json;
      assert.equal(openOnA.uri, open.uri);
      // Erin follows nobody: her public stream shows the public post, never the private one.
      const seen = await others.next();
      assert.deepEqual(seen.stream, ["public:remote"]);
      assert.equal((seen.json as Json).uri, open.uri);

      // A reply to alice: her mention notification, then the reply in her home.
      const question = await api(a, alice.token, "POST", "/api/v1/statuses", {
        status: "Anyone on B?",
      });
      assert.equal((await nextOnBoth()).event, "update", "her own post");
      const questionOnB = await resolveStatus(b, bob.token, question.uri);
      const reply = await api(b, bob.token, "POST", "/api/v1/statuses", {
        status: `@alice@${a.domain} yes, here`,
        in_reply_to_id: questionOnB.id,
      });
      const mention = await nextOnBoth();
      assert.equal(mention.event, "notification");
      assert.equal((mention.json as Json).type, "mention");
      assert.equal((mention.json as Json).status.uri, reply.uri);
      const replied = await nextOnBoth();
      assert.equal(replied.event, "update");
      assert.equal((replied.json as Json).uri, reply.uri);
      assert.equal((replied.json as Json).in_reply_to_id, question.id);

      // A boost of alice's post: her notification, then the boost in her home.
      await api(b, bob.token, "POST", `/api/v1/statuses/${questionOnB.id}/reblog`);
      const boosted = await nextOnBoth();
      assert.deepEqual([boosted.event, (boosted.json as Json).type], ["notification", "reblog"]);
      const boost = await nextOnBoth();
      assert.equal(boost.event, "update");
      assert.equal((boost.json as Json).reblog.id, question.id);

      await api(b, bob.token, "PUT", `/api/v1/statuses/${open.id}`, { status: "Hello from B!" });
      const edited = await nextOnBoth();
      assert.equal(edited.event, "status.update");
      assert.equal((edited.json as Json).id, openOnA.id);
      assert.match((edited.json as Json).content, /Hello from B!/);

      await api(b, bob.token, "DELETE", `/api/v1/statuses/${open.id}`);
      const deleted = await nextOnBoth();
      assert.deepEqual([deleted.event, deleted.payload], ["delete", openOnA.id]);
      // Erin's public stream is told of the edit and the deletion of what it showed.
      assert.equal((await others.next()).event, "status.update");
      const gone = await others.next();
      assert.deepEqual([gone.event, gone.payload], ["delete", openOnA.id]);
    } finally {
      await Promise.all([ws.close(), sse.close(), others.close()]);
    }
  });
});
