// The answer to POST /api/v1/statuses is rendered without reading what a status this request
// just stored cannot have yet (counters, card, the poster's flags: views/status-view.ts). It
// must be the very bytes the ordinary rendering of the same status gives, whatever the status
// carries; and it must come from what the post holds, not from reads (shown by a favourite
// written behind the renderer's back, which the ordinary rendering counts and the fresh one
// cannot know).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Status } from "../../src/domain/status.ts";
import { renderPostedStatusText, renderStatusText } from "../../src/http/mastodon/status-json.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { storeMedia } from "../media/stored-media.ts";
import { call, type Json, post } from "./helpers.ts";

describe("the answer to a post", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob] = await createUsers(server, "alice", "bob");
  });
  after(() => server.close());

  /** Posts as alice; the answer's text and the stored status. */
  async function posted(
    params: Record<string, unknown>,
  ): Promise<{ text: string; status: Status }> {
    const res = await server.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params),
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    const status = await server.wren.ctx.storage.statuses.get(JSON.parse(text).id);
    assert.ok(status);
    return { text, status };
  }

  /** The ordinary rendering of the stored status for its author, as GET renders it. */
  const ordinary = (status: Status) => renderStatusText(server.wren.ctx, status, alice.account.id);

  const cases: [string, () => Promise<Record<string, unknown>>][] = [
    ["a plain status", async () => ({ status: "Hello world" })],
    [
      "a status with a link, a tag, a mention and a content warning",
      async () => ({
        status: "Hi @bob, see https://example.com/page #Wren",
        spoiler_text: "long",
        visibility: "unlisted",
        language: "en",
      }),
    ],
    [
      "a status with a poll",
      async () => ({ status: "Which?", poll: { options: ["this", "that"], expires_in: 3600 } }),
    ],
    [
      "a status with media",
      async () => ({
        status: "Look",
        media_ids: [(await storeMedia(server, alice.account.id)).id],
        sensitive: true,
      }),
    ],
    [
      "a reply in a thread the poster muted",
      async () => {
        const own = await post(server, alice, { status: "my thread" });
        const reply = await post(server, bob, { status: "@alice yes", in_reply_to_id: own.id });
        await call(server, "POST", `/api/v1/statuses/${own.id}/mute`, { token: alice.token });
        return { status: "@bob indeed", in_reply_to_id: reply.id };
      },
    ],
    [
      "a reply to someone else",
      async () => {
        const theirs = await post(server, bob, { status: "question?" });
        return { status: "@bob answer", in_reply_to_id: theirs.id, visibility: "private" };
      },
    ],
    ["a direct status", async () => ({ status: "@bob between us", visibility: "direct" })],
    [
      "a quote",
      async () => {
        const quoted = await post(server, bob, { status: "quotable" });
        return { status: "look at this", quoted_status_id: quoted.id };
      },
    ],
  ];

  for (const [name, params] of cases) {
    it(`is the ordinary rendering, byte for byte: ${name}`, async () => {
      const { text, status } = await posted(await params());
      assert.equal(text, await ordinary(status));
    });
  }

  it("marks the poster's muted thread, which it reads for a reply", async () => {
    const own = await post(server, alice, { status: "another thread" });
    await call(server, "POST", `/api/v1/statuses/${own.id}/mute`, { token: alice.token });
    const { text } = await posted({ status: "more", in_reply_to_id: own.id });
    assert.equal(JSON.parse(text).muted, true);
  });

  it("renders a fresh status from what the post holds, not from reads", async () => {
    const ctx = server.wren.ctx;
    const { status } = await posted({ status: "soon favourited" });
    await call(server, "POST", `/api/v1/statuses/${status.id}/favourite`, { token: bob.token });
    await call(server, "POST", `/api/v1/statuses/${status.id}/bookmark`, { token: alice.token });
    // First: an ordinary rendering keeps what it read for the next one (status-shared-parts.ts).
    const fresh: Json = JSON.parse(
      await renderPostedStatusText(ctx, { status, freshlyPosted: true }, alice.account.id),
    );
    assert.equal(fresh.favourites_count, 0);
    assert.equal(fresh.bookmarked, false);
    const read: Json = JSON.parse(await ordinary(status));
    assert.equal(read.favourites_count, 1);
    assert.equal(read.bookmarked, true);
    // Not fresh (a retry answered with an earlier post): read as any status.
    const again: Json = JSON.parse(
      await renderPostedStatusText(ctx, { status, freshlyPosted: false }, alice.account.id),
    );
    assert.deepEqual(again, read);
  });

  it("answers a retry with the same Idempotency-Key from reads: it is not fresh", async () => {
    const headers = { "Idempotency-Key": "posted-answer-retry" };
    const first = await post(server, alice, { status: "once" }, headers);
    await call(server, "POST", `/api/v1/statuses/${first.id}/favourite`, { token: bob.token });
    const retry = await post(server, alice, { status: "once" }, headers);
    assert.equal(retry.id, first.id);
    assert.equal(retry.favourites_count, 1);
  });
});
