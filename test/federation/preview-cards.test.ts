import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type AliceAndBob,
  eventually,
  followRemote,
  handle,
  inHomeTimeline,
  startAliceAndBob,
} from "../helpers/federation.ts";
import { type LinkSite, startSite } from "../helpers/link-site.ts";
import { post } from "../statuses/helpers.ts";

describe("preview cards of remote statuses", () => {
  let cast: AliceAndBob;
  let site: LinkSite;
  before(async () => {
    site = await startSite();
    cast = await startAliceAndBob();
  });
  after(async () => {
    await cast.federation.close();
    await site.close();
  });

  it("fetches the card of a received status's first link, skipping its mention", async () => {
    const { a, b, alice, bob } = cast;
    await followRemote(b, bob, a, alice);
    const status = await post(a, alice, {
      status: `@${handle(b, "bob")} see ${site.origin}/article`,
    });
    const card = await eventually(async () => {
      const seen = await inHomeTimeline(b, bob.token, status.uri);
      assert.ok(seen.card, "no card yet");
      return seen.card;
    });
    assert.equal(card.url, `${site.origin}/article`);
    assert.equal(card.title, "Wrens & their songs");
    // Served by B from its own copy of the image.
    assert.ok(card.image.startsWith(b.url), card.image);
  });
});
