// Mentions across servers: alice (A) mentions dave (B), whom neither she nor her server knew
// before; her server finds him by WebFinger, delivers to his inbox, and dave is notified.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Json } from "../../graph/helpers.ts";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  handle,
  type Instance,
  startFederation,
  type TestFederation,
  user,
} from "../../helpers/federation.ts";

describe("mentions across servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let dave: TestUser;
  before(async () => {
    federation = await startFederation(2);
    [a, b] = federation.instances as [Instance, Instance];
    alice = await user(a, "alice");
    dave = await user(b, "dave");
  });
  after(() => federation.close());

  /** Dave's mention notification for the status with ActivityPub id `uri`. */
  async function mentionOfDave(uri: string): Promise<Json> {
    const notes = await api(b, dave.token, "GET", "/api/v1/notifications?types[]=mention");
    const note = notes.find((n: Json) => n.status?.uri === uri);
    assert.ok(note, `no mention notification for ${uri}`);
    return note;
  }

  it("notifies a remote user mentioned in a public post", async () => {
    const posted = await api(a, alice.token, "POST", "/api/v1/statuses", {
      status: `Hello @${handle(b, "dave")}, welcome!`,
    });
    // The mention was resolved on A when posting: it links to dave's account on B.
    assert.equal(posted.mentions.length, 1);
    assert.equal(posted.mentions[0].acct, `dave@${b.domain}`);
    assert.equal(posted.mentions[0].url, `${b.url}/@dave`);
    assert.match(posted.content, new RegExp(`href="${b.url}/@dave"`));

    const note = await eventually(() => mentionOfDave(posted.uri));
    assert.equal(note.account.acct, `alice@${a.domain}`);
    assert.equal(note.status.visibility, "public");
    assert.deepEqual(
      note.status.mentions.map((m: Json) => m.id),
      [dave.account.id],
    );
  });

  it("delivers a direct message to the mentioned user only, held as a request from a stranger", async () => {
    const posted = await api(a, alice.token, "POST", "/api/v1/statuses", {
      status: `@${handle(b, "dave")} just between us`,
      visibility: "direct",
    });
    // Dave does not follow alice: by Mastodon's default policy her private mention waits in a
    // notification request instead of the notifications.
    const request = await eventually(async () => {
      const requests = await api(b, dave.token, "GET", "/api/v1/notifications/requests");
      const found = requests.find((r: Json) => r.last_status?.uri === posted.uri);
      assert.ok(found, `no request for ${posted.uri}`);
      return found;
    });
    assert.equal(request.account.acct, `alice@${a.domain}`);
    assert.equal(request.last_status.visibility, "direct");
    const conversations = await api(b, dave.token, "GET", "/api/v1/conversations");
    assert.ok(
      conversations.some((c: Json) => c.last_status?.uri === posted.uri),
      "the message opens a conversation for dave",
    );

    await api(b, dave.token, "PATCH", "/api/v2/notifications/policy", {
      for_private_mentions: "accept",
    });
    const again = await api(a, alice.token, "POST", "/api/v1/statuses", {
      status: `@${handle(b, "dave")} still between us`,
      visibility: "direct",
    });
    const note = await eventually(() => mentionOfDave(again.uri));
    assert.equal(note.status.visibility, "direct");
  });
});
