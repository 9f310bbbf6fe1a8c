import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sanitizeRemoteHtml } from "./sanitize-html.ts";

describe("sanitizeRemoteHtml (Mastodon's allowlist)", () => {
  it("keeps Mastodon's own markup: mentions, hashtags, invisible and ellipsis spans", () => {
    const html =
      '<p>Hi <span class="h-card" translate="no"><a href="https://x.example/@a" class="u-url mention">@<span>a</span></a></span> ' +
      '<a href="https://x.example/tags/t" class="mention hashtag" rel="tag">#<span>t</span></a> ' +
      '<a href="https://example.org/long"><span class="invisible">https://</span><span class="ellipsis">example.org/lo</span><span class="invisible">ng</span></a></p>';
    assert.equal(
      sanitizeRemoteHtml(html),
      '<p>Hi <span class="h-card" translate="no"><a href="https://x.example/@a" class="u-url mention" rel="nofollow noopener" target="_blank">@<span>a</span></a></span> ' +
        '<a href="https://x.example/tags/t" class="mention hashtag" rel="nofollow noopener" target="_blank">#<span>t</span></a> ' +
        '<a href="https://example.org/long" rel="nofollow noopener" target="_blank"><span class="invisible">https://</span><span class="ellipsis">example.org/lo</span><span class="invisible">ng</span></a></p>',
    );
  });

  it("removes scripts, styles, iframes, images, SVG and math with their content", () => {
    const html =
      '<script>alert(1)</script><style>p{display:none}</style><iframe src="https://evil.example"><p>x</p></iframe>' +
      "<img src=x onerror=alert(1)><svg><script>1</script><text>svg</text></svg><math><mi>x</mi></math>" +
      "<noscript><p>n</p></noscript><textarea>t</textarea><p>kept</p>";
    assert.equal(sanitizeRemoteHtml(html), "<p>kept</p>");
  });

  it("drops event handlers, styles and unknown attributes", () => {
    const html =
      '<p style="color:red" onmouseover="x()" id="a" data-x="1" class="evil p-name">t</p><b onclick="y()">b</b>';
    assert.equal(sanitizeRemoteHtml(html), '<p class="p-name">t</p><b>b</b>');
  });

  it("turns links without an allowed scheme into their text", () => {
    const html =
      '<a href="javascript:alert(1)">js</a> <a href="JaVaScRiPt:alert(1)">js2</a> ' +
      '<a href=" javascript:alert(1)">js3</a> <a href="data:text/html,x">data</a> ' +
      '<a href="/relative">rel</a> <a href="//proto.example/x">proto</a> <a>none</a> ' +
      '<a href="gemini://g.example/">gem</a><b>after</b>';
    assert.equal(
      sanitizeRemoteHtml(html),
      "js js2 js3 data rel proto none " +
        '<a href="gemini://g.example/" rel="nofollow noopener" target="_blank">gem</a><b>after</b>',
    );
  });

  it("forces rel and target on links whatever the document says", () => {
    assert.equal(
      sanitizeRemoteHtml('<a href="https://a.example" rel="me opener" target="_self">a</a>'),
      '<a href="https://a.example" rel="nofollow noopener" target="_blank">a</a>',
    );
  });

  it("collapses headings into bold paragraphs and unwraps unknown blocks", () => {
    assert.equal(
      sanitizeRemoteHtml(
        "<h1>Title</h1><div><table><tr><td>cell</td></tr></table></div><h6>x</h6>",
      ),
      "<p><strong>Title</strong></p>cell<p><strong>x</strong></p>",
    );
  });

  it("keeps lists, quotes, code and ruby with their few attributes", () => {
    const html =
      '<ol start="3" reversed onclick="x"><li value="2">a</li></ol><ul><li>b</li></ul>' +
      "<blockquote>q</blockquote><pre><code>c</code></pre><del>d</del><s>s</s><u>u</u><i>i</i><em>e</em>" +
      "<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>";
    assert.equal(
      sanitizeRemoteHtml(html),
      '<ol start="3" reversed><li value="2">a</li></ol><ul><li>b</li></ul>' +
        "<blockquote>q</blockquote><pre><code>c</code></pre><del>d</del><s>s</s><u>u</u><i>i</i><em>e</em>" +
        "<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>",
    );
  });

  it("keeps lang everywhere and translate only as translate=no", () => {
    assert.equal(
      sanitizeRemoteHtml('<p lang="fr" translate="yes">a</p><span translate="no">b</span>'),
      '<p lang="fr">a</p><span translate="no">b</span>',
    );
  });

  it("escapes text and closes what was left open; the placeholders cannot be smuggled in", () => {
    assert.equal(
      sanitizeRemoteHtml("<p>1 &lt; 2 & 3 > 2 <b>bold <i>it"),
      "<p>1 &lt; 2 &amp; 3 &gt; 2 <b>bold <i>it</i></b></p>",
    );
    assert.equal(
      sanitizeRemoteHtml("<wren-heading>a</wren-heading><wren-unlinked>b</wren-unlinked>"),
      "ab",
    );
    assert.equal(sanitizeRemoteHtml("line<br/>break<br>"), "line<br>break<br>");
  });

  it("answers an empty string for anything that is not a string", () => {
    assert.equal(sanitizeRemoteHtml(undefined), "");
    assert.equal(sanitizeRemoteHtml(null), "");
    assert.equal(sanitizeRemoteHtml({ toString: () => "<script>x</script>" }), "");
    assert.equal(sanitizeRemoteHtml(""), "");
  });

  it("survives deeply nested junk", () => {
    const deep = `${"<div><span>".repeat(2000)}x${"</span></div>".repeat(2000)}`;
    const out = sanitizeRemoteHtml(deep);
    assert.ok(out.includes("x"));
    assert.ok(!out.includes("<div"));
  });
});
