// The instance's about page (/) and a hashtag's page (/tags/:name) over HTTP: what they show,
// that what admins and users typed is escaped, which posts a tag page lists (public only,
// never unlisted, private, direct or deleted ones), paging, and 404 for impossible names.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { postStatus } from "../timelines/helpers.ts";

describe("about and hashtag pages", () => {
  let server: TestServer;
  let admin: TestUser;
  let user: TestUser;
  const ids: Record<string, string> = {};

  const post = async (token: string, body: Record<string, unknown>) =>
    (await postStatus(server, token, body)).id;

  before(async () => {
    server = await startTestServer({
      WREN_INSTANCE_TITLE: "Wren <Test>",
      WREN_INSTANCE_DESCRIPTION: "A place for <birds>.\n\nSecond & last paragraph.",
      WREN_RULES: "Be kind <always>\nNo spam",
      WREN_CONTACT_EMAIL: "admin@wren.example",
      WREN_REGISTRATIONS: "closed",
    });
    admin = await createUserWithToken(server, "boss", ["read", "write"], { role: "admin" });
    user = await createUserWithToken(server, "finch");
    ids.public = await post(user.token, { status: "Seen a #Wren today" });
    ids.unlisted = await post(user.token, { status: "Quiet #wren", visibility: "unlisted" });
    ids.private = await post(user.token, { status: "Secret #wren", visibility: "private" });
    ids.direct = await post(user.token, { status: "@boss #wren", visibility: "direct" });
    ids.deleted = await post(user.token, { status: "Gone #wren" });
    await server.request(`/api/v1/statuses/${ids.deleted}`, {
      method: "DELETE",
      token: user.token,
    });
    ids.other = await post(admin.token, { status: "Nothing tagged" });
  });
  after(() => server.close());

  async function page(path: string): Promise<{ res: Response; html: string }> {
    const res = await server.request(path, { headers: { accept: "text/html" } });
    return { res, html: await res.text() };
  }

  it("/ shows the instance: title, description, numbers, rules, contact and how to sign in", async () => {
    const { res, html } = await page("/");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(res.headers.get("content-security-policy") ?? "", /script-src|default-src 'none'/);
    assert.doesNotMatch(html, /<script/i);
    assert.match(html, /<h1>Wren &lt;Test&gt;<\/h1>/);
    assert.match(html, /<p>A place for &lt;birds&gt;\.<\/p><p>Second &amp; last paragraph\.<\/p>/);
    assert.match(html, /<strong>2<\/strong> users/);
    assert.match(html, /<ol class="rules"><li>Be kind &lt;always&gt;<\/li><li>No spam<\/li><\/ol>/);
    assert.match(html, /href="mailto:admin@wren\.example"/);
    assert.match(html, new RegExp(`href="${server.url}/@boss"`));
    assert.match(html, /@boss@127\.0\.0\.1:\d+/);
    assert.match(html, /Sign in<\/h2>/);
    assert.match(html, /not taking new accounts/);
    assert.match(html, new RegExp(`<link rel="canonical" href="${server.url}/">`));
  });

  it("/tags/:name lists the public posts with the hashtag, any case, and announces its feeds", async () => {
    const { res, html } = await page("/tags/WREN");
    assert.equal(res.status, 200);
    assert.match(html, /<h1>#WREN<\/h1>/);
    assert.match(html, /Seen a/);
    for (const hidden of ["Quiet", "Secret", "Gone", "Nothing tagged"]) {
      assert.doesNotMatch(html, new RegExp(hidden), hidden);
    }
    assert.doesNotMatch(html, /boss #/);
    assert.match(html, new RegExp(`<link rel="canonical" href="${server.url}/tags/wren">`));
    assert.match(
      html,
      new RegExp(`type="application/rss\\+xml" title="#WREN" href="${server.url}/tags/wren\\.rss"`),
    );
  });

  it("/tags/:name says when nothing is tagged, and pages older posts", async () => {
    const empty = await page("/tags/nothinghere");
    assert.equal(empty.res.status, 200);
    assert.match(empty.html, /No public posts with this hashtag yet/);
    for (let i = 0; i < 21; i++) await post(user.token, { status: `Flock ${i} #flock` });
    const first = await page("/tags/flock");
    assert.match(first.html, /Flock 20/);
    assert.doesNotMatch(first.html, /Flock 0 /);
    const older = first.html.match(/href="([^"]+\?max_id=\d+)" rel="next"/)?.[1];
    assert.ok(older, "a link to older posts");
    const second = await page(older.replace(server.url, ""));
    assert.match(second.html, /Flock 0 /);
    assert.doesNotMatch(second.html, /Flock 20/);
    assert.doesNotMatch(second.html, /rel="next"/);
  });

  it("/tags/:name answers 404 for a name that cannot be a hashtag", async () => {
    const { res, html } = await page("/tags/no-such!");
    assert.equal(res.status, 404);
    assert.match(html, /Not found/);
  });
});
