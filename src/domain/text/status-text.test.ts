import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findHashtags } from "./hashtags.ts";
import { findMentions } from "./mentions.ts";
import {
  countStatusCharacters,
  extractMentions,
  extractTags,
  type ResolvedMention,
  statusTextToHtml,
} from "./status-text.ts";

const alice: ResolvedMention = { url: "https://wren.example/@alice", display: "alice" };
const options = {
  mentions: new Map<string, ResolvedMention>([
    ["alice", alice],
    ["alice@wren.example", alice],
  ]),
  tagUrl: (name: string) => `https://wren.example/tags/${name}`,
};
const html = (text: string) => statusTextToHtml(text, options);

describe("statusTextToHtml", () => {
  it("makes paragraphs and line breaks", () => {
    assert.equal(html("one\r\ntwo\n\n\nthree"), "<p>one<br />two</p><p>three</p>");
    assert.equal(html("  \n  "), "");
  });

  it("escapes markup", () => {
    assert.equal(
      html(`<script>alert("x")</script> & 'y'`),
      "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>",
    );
  });

  it("links URLs in Mastodon's shape, cutting long ones with an ellipsis", () => {
    assert.equal(
      html("see https://example.com/path"),
      '<p>see <a href="https://example.com/path" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="">example.com/path</span><span class="invisible"></span></a></p>',
    );
    assert.match(
      html("https://example.com/0123456789012345678901234567890123"),
      /<span class="ellipsis">example\.com\/012345678901234567<\/span><span class="invisible">8901234567890123<\/span>/,
    );
  });

  it("renders known mentions as h-cards and leaves unknown ones as text", () => {
    const expected =
      '<span class="h-card" translate="no"><a href="https://wren.example/@alice" class="u-url mention">@<span>alice</span></a></span>';
    assert.equal(html("hi @alice"), `<p>hi ${expected}</p>`);
    assert.equal(html("hi @alice@wren.example!"), `<p>hi ${expected}!</p>`);
    assert.equal(
      html("hi @nobody and @bob@else.example"),
      "<p>hi @nobody and @bob@else.example</p>",
    );
  });

  it("renders hashtags as tag links, keeping the typed case", () => {
    assert.equal(
      html("#Wren rocks"),
      '<p><a href="https://wren.example/tags/Wren" class="mention hashtag" rel="tag">#<span>Wren</span></a> rocks</p>',
    );
  });

  it("does not find mentions or tags inside URLs, e-mails or words", () => {
    const out = html("https://x.example/@alice#frag mail a@alice.example c#sharp");
    assert.doesNotMatch(out, /h-card|hashtag/);
  });
});

describe("extraction", () => {
  it("finds mentions with and without domains, once each", () => {
    assert.deepEqual(extractMentions("@Alice @bob@Remote.Example @alice x@y"), [
      { acct: "Alice", username: "Alice", domain: null },
      { acct: "bob@Remote.Example", username: "bob", domain: "remote.example" },
    ]);
    assert.deepEqual(
      findMentions("(@a.b-c) email@host.example").map((m) => m.username),
      ["a.b-c"],
    );
  });

  it("finds hashtags, normalised to lowercase, and not numeric-only ones", () => {
    assert.deepEqual(extractTags("#Foo #foo #bar_baz #123 #日本語 a#b (#x)"), [
      "foo",
      "bar_baz",
      "日本語",
      "x",
    ]);
    assert.deepEqual(
      findHashtags("#a·b").map((h) => h.name),
      ["a·b"],
    );
  });
});

describe("countStatusCharacters", () => {
  it("counts each URL as 23 characters", () => {
    const url = `https://example.com/${"a".repeat(100)}`;
    assert.equal(countStatusCharacters(`go ${url}`), 3 + 23);
  });

  it("counts only the username part of a mention and adds the spoiler", () => {
    assert.equal(countStatusCharacters("@bob@very.long.domain.example hi"), "@bob hi".length);
    assert.equal(countStatusCharacters("abc", "cw"), 5);
  });

  it("counts user-perceived characters", () => {
    assert.equal(countStatusCharacters("👍🏽e\u0301"), 2);
    // Mixed with plain ASCII, and a CR LF pair (one grapheme) that normalisation leaves as \n.
    assert.equal(countStatusCharacters("ok 👍🏽 e\u0301!"), 7);
    assert.equal(countStatusCharacters("a\r\nb"), 3);
  });

  it("finds URLs whatever the case of their scheme, and none without a scheme", () => {
    assert.equal(countStatusCharacters(`HTTPS://Example.com/${"a".repeat(40)}`), 23);
    assert.equal(countStatusCharacters("see example.com/abc"), "see example.com/abc".length);
  });

  it("gives the same answer when asked again (scans are remembered)", () => {
    const text = `hi @bob https://x.example/${"b".repeat(30)} #tag`;
    const first = countStatusCharacters(text);
    assert.equal(countStatusCharacters(text), first);
    assert.deepEqual(extractTags(text), ["tag"]);
    assert.deepEqual(extractTags(text), ["tag"]);
    assert.equal(first, "hi @bob ".length + 23 + " #tag".length);
  });
});
