import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { fetchStatusCard } from "../../src/services/cards/fetch-card.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { eventually } from "../helpers/federation.ts";
import { type LinkSite, startSite } from "../helpers/link-site.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, post } from "./helpers.ts";

describe("preview cards", () => {
  let site: LinkSite;
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    site = await startSite();
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    [alice] = await createUsers(server, "alice");
  });
  after(async () => {
    await server.close();
    await site.close();
  });

  it("gives a status the card of its first link, with a re-encoded image", async () => {
    const status = await post(server, alice, {
      status: `#birds @alice read ${site.origin}/article and ${site.origin}/untitled`,
    });
    assert.equal(status.card, null);
    const card: Json = await eventually(async () => {
      const body = await call(server, "GET", `/api/v1/statuses/${status.id}`);
      assert.ok(body.card, "card not fetched yet");
      return body.card;
    });
    assert.equal(card.url, `${site.origin}/article`);
    assert.equal(card.type, "link");
    assert.equal(card.title, "Wrens & their songs");
    assert.equal(card.description, "A field guide to small loud birds.");
    assert.equal(card.provider_name, "Bird Notes");
    assert.equal(card.image_description, "A wren on a branch");
    assert.equal(card.html, "");
    assert.ok(card.blurhash);
    // Shrunk to fit 400×400 and served from here, not hot-linked.
    assert.equal(card.width, 400);
    assert.equal(card.height, 267);
    assert.ok(!card.image.startsWith(site.origin), card.image);
    const image = await fetch(card.image);
    assert.equal(image.status, 200);
    const meta = await sharp(new Uint8Array(await image.arrayBuffer())).metadata();
    assert.equal(meta.width, 400);
    assert.equal(meta.format, "jpeg");

    // A second status linking the same page reuses the cached card: no new fetch.
    const before = site.hits.length;
    const again = await post(server, alice, { status: `also ${site.origin}/article` });
    await eventually(async () => {
      const body = await call(server, "GET", `/api/v1/statuses/${again.id}`);
      assert.equal(body.card?.title, "Wrens & their songs");
    });
    assert.equal(site.hits.length, before);
  });

  it("gives no card for pages without a title, non-HTML answers, or no link at all", async () => {
    const ctx = server.wren.ctx;
    for (const text of [`${site.origin}/untitled`, `${site.origin}/json`, "no link here"]) {
      const status = await post(server, alice, { status: text });
      await fetchStatusCard(ctx, status.id);
      const body = await call(server, "GET", `/api/v1/statuses/${status.id}`);
      assert.equal(body.card, null, text);
    }
  });

  it("reads what it can of broken HTML", async () => {
    const status = await post(server, alice, { status: `${site.origin}/broken` });
    await fetchStatusCard(server.wren.ctx, status.id);
    const body = await call(server, "GET", `/api/v1/statuses/${status.id}`);
    assert.equal(body.card?.title, "Broken <b>page</b>");
    assert.equal(body.card?.image, null);
  });

  it("follows edits: a new first link gets its card, a removed link drops it", async () => {
    const status = await post(server, alice, { status: `${site.origin}/article` });
    const cardOf = async () =>
      (await call(server, "GET", `/api/v1/statuses/${status.id}`)).card?.title ?? null;
    await eventually(async () => assert.equal(await cardOf(), "Wrens & their songs"));
    const edit = (text: string) =>
      call(server, "PUT", `/api/v1/statuses/${status.id}`, {
        token: alice.token,
        json: { status: text },
      });
    await edit(`now ${site.origin}/broken`);
    await eventually(async () => assert.equal(await cardOf(), "Broken <b>page</b>"));
    await edit("link gone");
    await eventually(async () => assert.equal(await cardOf(), null));
  });

  it("lists the cards of trending statuses as trending links, each URL once", async () => {
    const [writer, fan1, fan2] = await createUsers(server, "writer", "fan1", "fan2");
    await call(server, "PATCH", "/api/v1/accounts/update_credentials", {
      token: writer.token,
      json: { discoverable: true },
    });
    const linked = await post(server, writer, { status: `look ${site.origin}/article` });
    const plain = await post(server, writer, { status: "no link" });
    for (const fan of [fan1, fan2]) {
      for (const id of [linked.id, plain.id]) {
        await call(server, "POST", `/api/v1/statuses/${id}/favourite`, { token: fan.token });
      }
    }
    await fetchStatusCard(server.wren.ctx, linked.id);
    const links = await call(server, "GET", "/api/v1/trends/links");
    assert.deepEqual(
      links.map((l: Json) => [l.url, l.title]),
      [[`${site.origin}/article`, "Wrens & their songs"]],
    );
    assert.deepEqual(await call(server, "GET", "/api/v1/trends/links?offset=1"), []);
    // The link timeline lists the statuses behind a trending link, and only such links.
    const timeline = await call(
      server,
      "GET",
      `/api/v1/timelines/link?url=${encodeURIComponent(`${site.origin}/article`)}`,
    );
    assert.deepEqual(
      timeline.map((s: Json) => s.id),
      [linked.id],
    );
    const other = await call(
      server,
      "GET",
      `/api/v1/timelines/link?url=${encodeURIComponent(`${site.origin}/broken`)}`,
      {},
      404,
    );
    assert.equal(other.error, "Record not found");
  });
});

describe("preview cards without private addresses", () => {
  it("never fetches a page on a private address", async () => {
    const site = await startSite();
    const server = await startTestServer();
    try {
      const [bob] = await createUsers(server, "bob");
      const status = await post(server, bob, { status: `${site.origin}/article` });
      await fetchStatusCard(server.wren.ctx, status.id);
      const body = await call(server, "GET", `/api/v1/statuses/${status.id}`);
      assert.equal(body.card, null);
      assert.deepEqual(site.hits, []);
    } finally {
      await server.close();
      await site.close();
    }
  });
});
