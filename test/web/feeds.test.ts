// The RSS and Atom feeds of an account, of an account's hashtag and of a hashtag: well-formed
// XML (parsed here), which posts they carry (public and unlisted, no replies, boosts,
// private, direct or deleted posts; replies to oneself stay, as in Mastodon), what each item holds, the links announcing them on the
// profile, and 404 for what does not exist.
// The parser is fast-xml-parser, in node_modules as a dependency of s3rver (a devDependency).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as fxp from "fast-xml-parser";
import { createUserWithToken } from "../helpers/accounts.ts";
import { postStatus, putStatus } from "../timelines/helpers.ts";
import { startWebFixture, type WebFixture } from "./fixtures.ts";

type Node = Record<string, unknown>;

function decode(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

/** Parses a feed, failing on anything not well-formed; text and attributes are decoded. */
function parseXml(xml: string): Node {
  const valid = fxp.validate(xml);
  assert.equal(valid, true, JSON.stringify(valid));
  return fxp.parse(xml, {
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    parseNodeValue: false,
    parseAttributeValue: false,
    arrayMode: (name: string) => ["item", "entry", "category", "media:content"].includes(name),
    tagValueProcessor: (value: string) => decode(value),
    attrValueProcessor: (value: string) => decode(value),
  }) as Node;
}

const list = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : []);

describe("RSS and Atom feeds", () => {
  let f: WebFixture;
  let base: string;
  let reply: string;
  let selfReply: string;

  before(async () => {
    f = await startWebFixture();
    base = f.server.url;
    const dana = await createUserWithToken(f.server, "dana");
    const post = async (body: Record<string, unknown>, token = f.alice.token) =>
      (await postStatus(f.server, token, body)).id;
    const danas = await post({ status: "Dana speaks" }, dana.token);
    reply = await post({ status: "@dana A reply to Dana", in_reply_to_id: danas });
    // A reply to oneself continues a thread: Mastodon keeps those among "no replies".
    selfReply = await post({ status: "A reply to myself", in_reply_to_id: f.ids.public });
    await f.server.request(`/api/v1/statuses/${f.ids.reblog}/reblog`, {
      method: "POST",
      token: f.alice.token,
    });
  });
  after(async () => {
    await f?.server.close();
  });

  async function feed(path: string): Promise<{ res: Response; doc: Node }> {
    const res = await f.server.request(path);
    const text = await res.text();
    return { res, doc: res.status === 200 ? parseXml(text) : {} };
  }

  it("the account's RSS lists its public and unlisted posts, escaped, with their links", async () => {
    const { res, doc } = await feed("/@alice.rss");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/rss+xml; charset=utf-8");
    const rss = doc.rss as Node;
    assert.equal(rss["@_version"], "2.0");
    const channel = rss.channel as Node;
    assert.match(String(channel.title), /^<script>x\(""\)<\/script>/);
    assert.equal(channel.link, `${base}/@alice`);
    assert.equal((channel["atom:link"] as Node)["@_href"], `${base}/@alice.rss`);
    const items = list(channel.item);
    const links = items.map((item) => item.link);
    const url = (id: string) => `${base}/@alice/${id}`;
    assert.ok(links.includes(url(f.ids.public)));
    assert.ok(links.includes(url(f.ids.unlisted)));
    assert.ok(links.includes(url(selfReply)));
    for (const hidden of [f.ids.private, f.ids.direct, f.ids.deleted, reply]) {
      assert.ok(!links.includes(url(hidden)), `listed ${hidden}`);
    }
    // No boosts: every item is alice's own status page.
    for (const link of links) assert.match(String(link), new RegExp(`^${base}/@alice/\\d+$`));
    assert.equal(items.length, 6, "public, unlisted, picture, poll, content warning, thread");

    const hello = items.find((item) => item.link === url(f.ids.public)) as Node;
    assert.match(String(hello.description), /Hello &lt;world&gt;/);
    assert.doesNotMatch(String(hello.description), /<script/);
    assert.match(String(hello.title), /^Hello <world>/);
    assert.deepEqual(hello.category, ["birds"]);
    assert.ok(!Number.isNaN(Date.parse(String(hello.pubDate))));
    assert.equal((hello.guid as Node)["#text"], url(f.ids.public));

    const warned = items.find((item) => item.link === url(f.ids.spoiler)) as Node;
    assert.equal(warned.title, "Birds ahead");
    const picture = items.find((item) => item.link === url(f.ids.picture)) as Node;
    const [media] = list(picture["media:content"]);
    assert.ok(media, "the picture as media:content");
    assert.equal(media["@_medium"], "image");
    assert.equal(media["@_type"], "image/png");
    assert.match(String(media["@_url"]), /^https?:\/\//);
    assert.equal((media["media:description"] as Node)["#text"], `A red square "quoted" <b>`);
  });

  it("the account's Atom feed holds the same posts as entries", async () => {
    const { res, doc } = await feed("/@alice.atom");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/atom+xml; charset=utf-8");
    const atom = doc.feed as Node;
    assert.equal(atom["@_xmlns"], "http://www.w3.org/2005/Atom");
    assert.equal(atom.id, `${base}/@alice.atom`);
    assert.ok(!Number.isNaN(Date.parse(String(atom.updated))));
    const entries = list(atom.entry);
    assert.equal(entries.length, 6);
    const hello = entries.find((e) => e.id === `${base}/users/alice/statuses/${f.ids.public}`);
    assert.ok(hello, "the public post, by its ActivityPub id");
    assert.equal((hello.link as Node)["@_href"], `${base}/@alice/${f.ids.public}`);
    assert.equal((hello.content as Node)["@_type"], "html");
    assert.match(String((hello.content as Node)["#text"]), /Hello &lt;world&gt;/);
    assert.equal((hello.author as Node).uri, `${base}/@alice`);
  });

  it("an account's hashtag feed and a hashtag's feed list only posts with the tag", async () => {
    const tagged = await feed("/@alice/tagged/Birds.rss");
    assert.equal(tagged.res.status, 200);
    const taggedItems = list(((tagged.doc.rss as Node).channel as Node).item);
    assert.deepEqual(
      taggedItems.map((i) => i.link),
      [`${base}/@alice/${f.ids.public}`],
    );
    const tag = await feed("/tags/birds.rss");
    assert.equal(tag.res.status, 200);
    const channel = (tag.doc.rss as Node).channel as Node;
    assert.equal(channel.title, "#birds");
    assert.equal(channel.link, `${base}/tags/birds`);
    assert.deepEqual(
      list(channel.item).map((i) => i.link),
      [`${base}/@alice/${f.ids.public}`],
    );
    const atom = await feed("/tags/birds.atom");
    assert.equal(list((atom.doc.feed as Node).entry).length, 1);
  });

  it("a hashtag's feed lists other servers' posts too, and only ours with ?local=true", async () => {
    const carol = await f.server.wren.ctx.storage.accounts.findByUsername(
      "carol",
      "remote.example",
    );
    assert.ok(carol);
    const remote = await putStatus(f.server, carol, {
      text: "",
      contentHtml: "<p>Remote #robins</p>",
      tags: ["robins"],
      url: "https://remote.example/@carol/1",
    });
    const mine = (await postStatus(f.server, f.alice.token, { status: "Local #robins" })).id;
    const links = async (path: string) =>
      list((((await feed(path)).doc.rss as Node).channel as Node).item).map((i) => i.link);
    assert.deepEqual(await links("/tags/robins.rss"), [`${base}/@alice/${mine}`, remote.url]);
    assert.deepEqual(await links("/tags/robins.rss?local=true"), [`${base}/@alice/${mine}`]);
    const none = await feed("/tags/nothingtaggedhere.atom");
    assert.equal(none.res.status, 200);
    assert.equal(list((none.doc.feed as Node).entry).length, 0);
  });

  it("the profile page announces its feeds", async () => {
    const html = await (await f.server.request("/@alice")).text();
    assert.match(
      html,
      new RegExp(
        `<link rel="alternate" type="application/rss\\+xml" title="[^"]*" href="${base}/@alice\\.rss">`,
      ),
    );
    assert.match(
      html,
      new RegExp(`type="application/atom\\+xml" title="[^"]*" href="${base}/@alice\\.atom">`),
    );
  });

  it("answers 404 for unknown and remote accounts and names that cannot be hashtags", async () => {
    for (const path of [
      "/@nobody.rss",
      "/@carol@remote.example.rss",
      "/tags/no-such!.rss",
      "/@alice/tagged/bad!.atom",
      "/@nobody/tagged/birds.rss",
    ]) {
      const res = await f.server.request(path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
  });
});
