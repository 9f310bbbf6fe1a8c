// The small endpoints apps and embedders poll: GET /health, GET /api/oembed (which statuses an
// embed may quote, and how) and GET /api/v1/timelines/link (404 for a link that is not trending).
// GET /api/v1/timelines/direct, which Mastodon removed in 3.0 but older apps still call, is
// served: test/timelines/direct.test.ts.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startWebFixture, type WebFixture } from "../web/fixtures.ts";

describe("health, oEmbed and the link timeline", () => {
  let f: WebFixture;
  let base: string;

  before(async () => {
    f = await startWebFixture();
    base = f.server.url;
  });
  after(async () => {
    await f?.server.close();
  });

  async function getJson(path: string, token?: string) {
    const res = await f.server.request(path, token ? { token } : {});
    const body = (await res.json()) as Record<string, unknown>;
    assertMatchesResponse("get", path.split("?")[0] ?? path, res.status, body);
    return { res, body };
  }

  const oembed = (url: string, extra = "") =>
    getJson(`/api/oembed?url=${encodeURIComponent(url)}${extra}`);

  it("GET /health answers a plain OK, uncached, without a token", async () => {
    const res = await f.server.request("/health");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.equal(await res.text(), "OK");
  });

  it("oEmbed describes a public status by its page URL, quoting it escaped", async () => {
    const url = `${base}/@alice/${f.ids.public}`;
    const { res, body } = await oembed(url);
    assert.equal(res.status, 200);
    assert.equal(body.type, "rich");
    assert.equal(body.version, "1.0");
    assert.equal(body.author_url, `${base}/@alice`);
    assert.match(String(body.author_name), /^<script>x\(""\)<\/script>/);
    assert.equal(body.provider_url, `${base}/`);
    assert.equal(body.provider_name, new URL(base).host);
    assert.equal(body.cache_age, 86400);
    assert.equal(body.width, 400);
    assert.equal(body.height, null);
    const html = String(body.html);
    assert.doesNotMatch(html, /<script/i);
    assert.match(html, /Hello &lt;world&gt;/);
    assert.match(html, new RegExp(`<a href="${url}">`));
    assert.match(html, /&lt;script&gt;x\(&quot;&quot;\)/);
  });

  it("oEmbed takes the ActivityPub address too, an unlisted status, and maxwidth/maxheight", async () => {
    const uri = `${base}/users/alice/statuses/${f.ids.unlisted}`;
    const { res, body } = await oembed(uri, "&maxwidth=300&maxheight=200");
    assert.equal(res.status, 200);
    assert.match(String(body.html), /Quiet unlisted post/);
    assert.equal(body.width, 300);
    assert.equal(body.height, 200);
  });

  it("oEmbed shows a content warning instead of the hidden text", async () => {
    const { body } = await oembed(`${base}/@alice/${f.ids.spoiler}`);
    assert.match(String(body.html), /Content warning: Birds ahead/);
    assert.doesNotMatch(String(body.html), /Hidden text/);
  });

  it("oEmbed answers 404 for private, direct, deleted, boosts, others' URLs and non-URLs", async () => {
    const notFound = [
      `${base}/@alice/${f.ids.private}`,
      `${base}/@alice/${f.ids.direct}`,
      `${base}/@alice/${f.ids.deleted}`,
      `${base}/@bob/${f.ids.reblog}`,
      `${base}/@bob/${f.ids.public}`,
      `https://elsewhere.example/@alice/${f.ids.public}`,
      `${base}/@alice`,
      "not a url",
    ];
    for (const url of notFound) {
      const { res, body } = await oembed(url);
      assert.equal(res.status, 404, url);
      assert.equal(body.error, "Record not found");
    }
    const missing = await getJson("/api/oembed");
    assert.equal(missing.res.status, 404);
  });

  it("oEmbed refuses a maxwidth that is not a number (422)", async () => {
    const { res, body } = await oembed(`${base}/@alice/${f.ids.public}`, "&maxwidth=wide");
    assert.equal(res.status, 422);
    assert.match(String(body.error), /maxwidth/);
  });

  it("the link timeline knows no trending link: 404, and checks its token and parameters", async () => {
    const url = encodeURIComponent("https://news.example/article");
    const anonymous = await getJson(`/api/v1/timelines/link?url=${url}`);
    assert.equal(anonymous.res.status, 404);
    assert.equal(anonymous.body.error, "Record not found");
    assert.equal((await getJson("/api/v1/timelines/link", f.alice.token)).res.status, 404);
    const bad = await getJson(`/api/v1/timelines/link?url=${url}&limit=lots`);
    assert.equal(bad.res.status, 422);
    // A token, when sent, must be valid and hold read:statuses.
    assert.equal((await getJson(`/api/v1/timelines/link?url=${url}`, "nonsense")).res.status, 401);
    const writer = await createUserWithToken(f.server, "writer", ["write"]);
    const scoped = await getJson(`/api/v1/timelines/link?url=${url}`, writer.token);
    assert.equal(scoped.res.status, 403);
  });
});
