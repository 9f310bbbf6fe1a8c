// The public profile and status pages over plain HTTP: status codes, content type and security
// headers, escaping of what users typed, head tags for link previews and ActivityPub discovery,
// which statuses are never shown, and that a request for ActivityPub JSON never gets HTML.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ALT_TEXT, startWebFixture, type WebFixture } from "./fixtures.ts";

const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const ACTIVITY = "application/activity+json";
const LD = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

describe("public web pages", () => {
  let f: WebFixture;
  let base: string;

  before(async () => {
    f = await startWebFixture();
    base = f.server.url;
  });
  after(async () => {
    await f?.server.close();
  });

  async function page(path: string, accept = HTML): Promise<{ res: Response; html: string }> {
    const res = await f.server.request(path, { headers: { accept } });
    return { res, html: await res.text() };
  }

  function metaContent(html: string, key: string): string | undefined {
    const match = html.match(new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`));
    return match?.[1];
  }

  it("serves the profile with escaped names, emojis, bio, fields and counts", async () => {
    const { res, html } = await page("/@alice");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html; charset=utf-8/i);
    assert.doesNotMatch(html, /<script/i);
    assert.match(html, /<h1>&lt;script&gt;x\(&quot;&quot;\)&lt;\/script&gt; <img class="emoji"/);
    assert.match(html, /<img class="emoji" src="[^"]+" alt=":wren:"/);
    assert.match(html, /@alice@127\.0\.0\.1:\d+/);
    assert.match(html, /Birds &amp; code/);
    assert.match(html, /Second &lt;paragraph&gt;/);
    assert.match(html, /<dt>Site &lt;b&gt;<\/dt><dd><a href="https:\/\/wren\.example"/);
    // Mastodon's count: every status of the account that is not deleted, private ones too.
    assert.match(html, /<strong>7<\/strong> posts/);
    assert.match(html, /Hello &lt;world&gt;/);
    assert.match(html, /Quiet unlisted post/);
  });

  it("never lists private, direct or deleted statuses on the profile", async () => {
    const { html } = await page("/@alice");
    assert.doesNotMatch(html, /Followers only secret/);
    assert.doesNotMatch(html, /direct secret/);
    assert.doesNotMatch(html, /Soon deleted post/);
  });

  it("puts Open Graph tags, the canonical URL and the ActivityPub alternate in the head", async () => {
    const { html } = await page("/@alice");
    assert.equal(metaContent(html, "og:type"), "profile");
    assert.equal(metaContent(html, "og:url"), `${base}/@alice`);
    assert.match(metaContent(html, "og:title") ?? "", /^&lt;script&gt;.* \(@alice@/);
    assert.match(metaContent(html, "og:description") ?? "", /Birds &amp; code/);
    assert.match(metaContent(html, "og:image") ?? "", /^http:\/\/127\.0\.0\.1:\d+\/media\//);
    assert.match(html, new RegExp(`<link rel="canonical" href="${base}/@alice">`));
    assert.match(
      html,
      new RegExp(
        `<link rel="alternate" type="application/activity\\+json" href="${base}/users/alice">`,
      ),
    );
    assert.match(html, /<title>&lt;script&gt;/);
  });

  it("sends a restrictive CSP without scripts, nosniff and Vary: Accept", async () => {
    const { res } = await page("/@alice");
    const csp = res.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(csp, /script-src|unsafe-inline/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.match(res.headers.get("vary") ?? "", /Accept/i);
  });

  it("serves the same profile at the actor id for browsers", async () => {
    const { res, html } = await page("/users/alice");
    assert.equal(res.status, 200);
    assert.match(html, new RegExp(`<link rel="canonical" href="${base}/@alice">`));
  });

  it("pages through older posts", async () => {
    const { res, html } = await page(`/@alice?max_id=${f.ids.poll}`);
    assert.equal(res.status, 200);
    // Older than the poll: the picture, the unlisted and the public post; not the spoiler.
    assert.match(html, /A picture/);
    assert.match(html, /Hello &lt;world&gt;/);
    assert.doesNotMatch(html, /Birds ahead/);
    assert.match(html, /href="[^"]*\/@alice">Newest posts/);
    // A full first page links to the next one.
    for (let i = 0; i < 20; i++) {
      await f.server.request("/api/v1/statuses", {
        method: "POST",
        token: f.alice.token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: `Filler ${i}` }),
      });
    }
    const first = await page("/@alice");
    assert.match(first.html, /Filler 0\b/);
    assert.doesNotMatch(first.html, /Birds ahead/);
    const older = first.html.match(/href="([^"]*\?max_id=\d+)" rel="next"/);
    assert.ok(older, "an Older posts link");
    const link = new URL(older[1] as string);
    const next = await page(link.pathname + link.search);
    assert.match(next.html, /Birds ahead/);
    assert.doesNotMatch(next.html, /Filler/);
  });

  it("serves a public status with its content, counters and head tags", async () => {
    const { res, html } = await page(`/@alice/${f.ids.public}`);
    assert.equal(res.status, 200);
    assert.match(html, /Hello &lt;world&gt; <img class="emoji"/);
    assert.match(html, /<strong>1<\/strong> boost\b/);
    assert.match(html, /<time datetime="\d{4}-/);
    assert.equal(metaContent(html, "og:type"), "article");
    assert.equal(metaContent(html, "og:url"), `${base}/@alice/${f.ids.public}`);
    assert.match(metaContent(html, "og:description") ?? "", /Hello &lt;world&gt; :wren: #birds/);
    assert.match(
      html,
      new RegExp(
        `<link rel="alternate" type="application/activity\\+json" href="${base}/users/alice/statuses/${f.ids.public}">`,
      ),
    );
    const same = await page(`/users/alice/statuses/${f.ids.public}`);
    assert.equal(same.res.status, 200);
    assert.match(same.html, /Hello &lt;world&gt;/);
  });

  it("serves an unlisted status", async () => {
    const { res, html } = await page(`/@alice/${f.ids.unlisted}`);
    assert.equal(res.status, 200);
    assert.match(html, /Quiet unlisted post/);
  });

  it("shows pictures with their alt text and uses one as the preview image", async () => {
    const { res, html } = await page(`/@alice/${f.ids.picture}`);
    assert.equal(res.status, 200);
    assert.match(html, /<img src="[^"]+" alt="A red square &quot;quoted&quot; &lt;b&gt;"/);
    assert.ok(!html.includes(ALT_TEXT));
    assert.match(metaContent(html, "og:image") ?? "", /\/media\//);
  });

  it("shows poll results", async () => {
    const { html } = await page(`/@alice/${f.ids.poll}`);
    assert.match(html, /<span>Wren<\/span><span>100%<\/span>/);
    assert.match(html, /<span>Robin<\/span><span>0%<\/span>/);
    assert.match(html, /<strong>1<\/strong> person · Ends <time/);
  });

  it("keeps a content warning's text folded and out of the preview", async () => {
    const { html } = await page(`/@alice/${f.ids.spoiler}`);
    assert.match(html, /<details class="spoiler"><summary>Birds ahead<\/summary>/);
    assert.equal(metaContent(html, "og:description"), "Content warning: Birds ahead");
  });

  for (const kind of ["private", "direct"] as const) {
    it(`answers 404 for a ${kind} status, at both addresses`, async () => {
      for (const path of [`/@alice/${f.ids[kind]}`, `/users/alice/statuses/${f.ids[kind]}`]) {
        const { res, html } = await page(path);
        assert.equal(res.status, 404, path);
        assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
        assert.doesNotMatch(html, /secret/);
        assert.match(html, /Not found/);
      }
    });
  }

  it("answers 410 for a deleted status", async () => {
    const { res, html } = await page(`/@alice/${f.ids.deleted}`);
    assert.equal(res.status, 410);
    assert.doesNotMatch(html, /Soon deleted post/);
    assert.match(html, /has been deleted/);
  });

  it("answers 404 pages for unknown accounts and statuses, and another account's status", async () => {
    for (const path of [
      "/@nobody",
      "/users/nobody",
      "/@nobody/1",
      `/@bob/${f.ids.public}`,
      "/@alice/99999999999999999",
      "/@alice/not-a-number",
    ]) {
      const { res, html } = await page(path);
      assert.equal(res.status, 404, path);
      assert.match(html, /<h1>Not found<\/h1>/, path);
    }
  });

  it("sends a boost's page to the boosted status", async () => {
    const res = await f.server.request(`/@bob/${f.ids.reblog}`, { headers: { accept: HTML } });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), `${base}/@alice/${f.ids.public}`);
  });

  it("redirects a remote account's page to its own server", async () => {
    const res = await f.server.request("/@carol@remote.example", { headers: { accept: HTML } });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "https://remote.example/@carol");
    const unknown = await page("/@dave@remote.example");
    assert.equal(unknown.res.status, 404);
  });

  it("never answers a request for ActivityPub JSON with HTML", async () => {
    for (const accept of [ACTIVITY, LD, `${ACTIVITY}, text/html;q=0.5`]) {
      for (const path of [
        "/@alice",
        `/@alice/${f.ids.public}`,
        "/users/alice",
        `/users/alice/statuses/${f.ids.public}`,
        `/@alice/${f.ids.private}`,
        `/@alice/${f.ids.deleted}`,
        "/@nobody",
      ]) {
        const res = await f.server.request(path, { headers: { accept } });
        await res.body?.cancel();
        assert.doesNotMatch(
          res.headers.get("content-type") ?? "",
          /text\/html/,
          `${accept} ${path}`,
        );
      }
    }
  });

  it("sends peers asking for JSON at a page address to the ActivityPub id", async () => {
    const actor = await f.server.request("/@alice", { headers: { accept: ACTIVITY } });
    assert.equal(actor.status, 302);
    assert.equal(actor.headers.get("location"), `${base}/users/alice`);
    const note = await f.server.request(`/@alice/${f.ids.public}`, { headers: { accept: LD } });
    assert.equal(note.status, 302);
    assert.equal(note.headers.get("location"), `${base}/users/alice/statuses/${f.ids.public}`);
    // A restricted status is not revealed to exist; a deleted one is gone.
    const hidden = await f.server.request(`/@alice/${f.ids.private}`, {
      headers: { accept: ACTIVITY },
    });
    assert.equal(hidden.status, 404);
    assert.deepEqual(await hidden.json(), { error: "Record not found" });
    const gone = await f.server.request(`/@alice/${f.ids.deleted}`, {
      headers: { accept: ACTIVITY },
    });
    assert.equal(gone.status, 410);
    await gone.body?.cancel();
  });

  it("prefers HTML when the browser ranks it first", async () => {
    const { res } = await page("/@alice", `text/html, ${ACTIVITY};q=0.9`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  });
});
