import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { escapeHtml } from "./html.ts";
import { findLinks, linkHtml, linkifyText } from "./links.ts";
import { fieldValueToHtml, plainTextToHtml } from "./plain-text.ts";

describe("escapeHtml", () => {
  it("escapes the five HTML specials", () => {
    assert.equal(
      escapeHtml(`<a href="x">'&'</a>`),
      "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
    );
  });
});

describe("links", () => {
  it("finds only http(s) URLs, not bare domains or emails", () => {
    const links = findLinks("see example.com, a@b.com and https://example.com/x?y=1. ok");
    assert.deepEqual(
      links.map((l) => l.url),
      ["https://example.com/x?y=1"],
    );
  });

  it("hides the scheme and www. and cuts long remainders like Mastodon", () => {
    assert.equal(
      linkHtml("https://www.example.com/a"),
      '<a href="https://www.example.com/a" target="_blank" rel="nofollow noopener noreferrer" translate="no"><span class="invisible">https://www.</span><span class="">example.com/a</span><span class="invisible"></span></a>',
    );
    const long = linkHtml("https://example.com/abcdefghijklmnopqrstuvwxyz0123456789");
    assert.match(long, /<span class="ellipsis">example\.com\/abcdefghijklmnopqr<\/span>/);
    assert.match(long, /<span class="invisible">stuvwxyz0123456789<\/span>/);
  });

  it("escapes text around links and inside them", () => {
    assert.equal(
      linkifyText("<b> https://x.example/?a=1&b=2"),
      '&lt;b&gt; <a href="https://x.example/?a=1&amp;b=2" target="_blank" rel="nofollow noopener noreferrer" translate="no"><span class="invisible">https://</span><span class="">x.example/?a=1&amp;b=2</span><span class="invisible"></span></a>',
    );
  });
});

describe("plainTextToHtml", () => {
  it("makes paragraphs from blank lines and <br /> from single newlines", () => {
    assert.equal(plainTextToHtml("one\r\ntwo\n\n\nthree"), "<p>one<br />two</p><p>three</p>");
  });

  it("escapes markup and gives an empty string for blank text", () => {
    assert.equal(plainTextToHtml("<script>x</script>"), "<p>&lt;script&gt;x&lt;/script&gt;</p>");
    assert.equal(plainTextToHtml("  \n "), "");
  });

  it("links URLs inside paragraphs", () => {
    assert.match(
      plainTextToHtml("web: https://a.example"),
      /^<p>web: <a href="https:\/\/a\.example"/,
    );
  });
});

describe("fieldValueToHtml", () => {
  it("links with rel=me and adds no paragraph", () => {
    const html = fieldValueToHtml("https://me.example");
    assert.match(
      html,
      /^<a href="https:\/\/me\.example" target="_blank" rel="me nofollow noopener noreferrer"/,
    );
    assert.equal(fieldValueToHtml("they/them & <co>"), "they/them &amp; &lt;co&gt;");
  });
});
