// Quote posts between two Wren instances (FEP-044f, as Mastodon 4.5 does them): alice (A)
// quotes bob's posts (B). The quote is pending until B answers A's QuoteRequest; B's policy
// accepts with a stamp that A checks by fetching it, or rejects; bob's revoke (a Delete of the
// stamp) shows as revoked on both servers.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Json } from "../../graph/helpers.ts";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  type Instance,
  inHomeTimeline,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";

describe("quote posts across servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
    await followRemote(a, alice, b, bob);
  });
  after(() => federation.close());

  async function bobPosts(extra: Record<string, unknown>) {
    const posted = await api(b, bob.token, "POST", "/api/v1/statuses", extra);
    const copy = await eventually(() => inHomeTimeline(a, alice.token, posted.uri));
    return { posted, copy };
  }
  const onA = (id: string) => api(a, alice.token, "GET", `/api/v1/statuses/${id}`);
  const onB = (id: string) => api(b, bob.token, "GET", `/api/v1/statuses/${id}`);
  const activityJson = async (url: string) => {
    const res = await fetch(url, { headers: { accept: "application/activity+json" } });
    return { status: res.status, body: res.status === 200 ? ((await res.json()) as Json) : null };
  };

  /** Alice's quote as B holds it, found in the quotes of bob's post. */
  const quotesOnB = (postedId: string) =>
    api(b, bob.token, "GET", `/api/v1/statuses/${postedId}/quotes`);

  it("goes pending → accepted, with a stamp that B serves and A's Note names", async () => {
    const { posted, copy } = await bobPosts({ status: "quote me" });
    assert.deepEqual(copy.quote_approval.automatic, ["public"]);
    const quote = await api(a, alice.token, "POST", "/api/v1/statuses", {
      status: "so true",
      quoted_status_id: copy.id,
    });
    assert.deepEqual(quote.quote, { state: "pending", quoted_status: null });

    const accepted = await eventually(async () => {
      const shown = await onA(quote.id);
      assert.equal(shown.quote.state, "accepted");
      return shown;
    });
    assert.equal(accepted.quote.quoted_status.uri, posted.uri);

    // On B: listed, counted and notified.
    const listed = await eventually(async () => {
      const list = await quotesOnB(posted.id);
      assert.equal(list.length, 1);
      return list[0];
    });
    assert.equal(listed.uri, quote.uri);
    assert.equal(listed.quote.state, "accepted");
    // One fallback link (A's), not a second one added by B.
    assert.equal(listed.content.match(/quote-inline/g)?.length, 1, listed.content);
    assert.equal((await onB(posted.id)).quotes_count, 1);
    const notes = await api(b, bob.token, "GET", "/api/v1/notifications?types[]=quote");
    assert.equal(notes.length, 1);
    assert.equal(notes[0].status.uri, quote.uri);

    // The stamp is dereferenceable on B and names this quote of this post.
    const stored = await a.wren.ctx.storage.statuses.get(quote.id);
    const stampUri = stored?.quote?.authorizationUri ?? "";
    assert.ok(stampUri.startsWith(b.url), `a stamp of B: ${stampUri}`);
    const stamp = await activityJson(stampUri);
    assert.equal(stamp.status, 200);
    assert.equal(stamp.body.type, "QuoteAuthorization");
    assert.equal(stamp.body.interactingObject, quote.uri);
    assert.equal(stamp.body.interactionTarget, posted.uri);
    assert.equal(stamp.body.attributedTo, bob.account.uri);

    // A's Note carries the quote in FEP-044f and its older forms, the stamp and its policy.
    const note = (await activityJson(quote.uri)).body;
    assert.equal(note.quote, posted.uri);
    assert.equal(note._misskey_quote, posted.uri);
    assert.equal(note.quoteUri, posted.uri);
    assert.equal(note.quoteAuthorization, stampUri);
    const approval = note.interactionPolicy.canQuote.automaticApproval;
    assert.ok(
      [approval].flat().some((v: string) => /#Public$|^as:Public$/.test(v)),
      JSON.stringify(note.interactionPolicy),
    );
  });

  it("a quote that B's policy refuses is rejected; A refuses what it knows it may not quote", async () => {
    const { posted, copy } = await bobPosts({ status: "not this one" });
    // Bob closes the post after A got it: the Update tells A.
    await api(b, bob.token, "PUT", `/api/v1/statuses/${posted.id}/interaction_policy`, {
      quote_approval_policy: "nobody",
    });
    await eventually(async () => {
      const known = await onA(copy.id);
      assert.deepEqual(known.quote_approval.automatic, []);
      assert.equal(known.quote_approval.current_user, "denied");
    });
    // Were A not to know the policy (a server that states no canQuote), A would ask and B's
    // policy would answer: A's copy is made to know nothing of it.
    const stored = await a.wren.ctx.storage.statuses.get(copy.id);
    assert.ok(stored);
    await a.wren.ctx.storage.statuses.put({ ...stored, quotePolicy: null });
    assert.equal((await onA(copy.id)).quote_approval.current_user, "unknown");
    const quote = await api(a, alice.token, "POST", "/api/v1/statuses", {
      status: "hm",
      quoted_status_id: copy.id,
    });
    assert.equal(quote.quote.state, "pending");
    await eventually(async () => {
      assert.deepEqual((await onA(quote.id)).quote, { state: "rejected", quoted_status: null });
    });
    assert.deepEqual(await quotesOnB(posted.id), []);

    // A post B publishes as `nobody` or followers-only: A refuses at once.
    const { copy: closed } = await bobPosts({ status: "closed", quote_approval_policy: "nobody" });
    assert.deepEqual(closed.quote_approval.automatic, []);
    assert.equal(closed.quote_approval.current_user, "denied");
    const { copy: secret } = await bobPosts({ status: "followers", visibility: "private" });
    for (const target of [closed, secret]) {
      const res = await a.request("/api/v1/statuses", {
        method: "POST",
        token: alice.token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: "x", quoted_status_id: target.id }),
      });
      assert.equal(res.status, 403);
    }
  });

  it("revoking shows the quote as revoked on both servers and withdraws the stamp", async () => {
    const { posted, copy } = await bobPosts({ status: "for now" });
    const quote = await api(a, alice.token, "POST", "/api/v1/statuses", {
      status: "agreed",
      quoted_status_id: copy.id,
    });
    await eventually(async () => assert.equal((await onA(quote.id)).quote.state, "accepted"));
    const onBQuote = await eventually(async () => {
      const [found] = await quotesOnB(posted.id);
      assert.ok(found);
      return found;
    });
    const stampUri = (await a.wren.ctx.storage.statuses.get(quote.id))?.quote?.authorizationUri;
    assert.ok(stampUri);

    const revoked = await api(
      b,
      bob.token,
      "POST",
      `/api/v1/statuses/${posted.id}/quotes/${onBQuote.id}/revoke`,
    );
    assert.deepEqual(revoked.quote, { state: "revoked", quoted_status: null });
    assert.deepEqual(await quotesOnB(posted.id), []);
    assert.equal((await activityJson(stampUri)).status, 404);
    await eventually(async () => {
      assert.deepEqual((await onA(quote.id)).quote, { state: "revoked", quoted_status: null });
    });
  });
});
