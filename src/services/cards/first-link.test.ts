// The card link of a status's HTML: the quick look for an anchor before any parse must never
// miss one the parse would find (any case, any whitespace after the tag name).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { firstCardLink } from "./first-link.ts";

const HOST = "https://wren.example";

describe("firstCardLink", () => {
  it("finds nothing in HTML without a link", () => {
    assert.equal(firstCardLink("<p>No link here, only <abbr>text</abbr></p>", HOST), null);
    assert.equal(firstCardLink("", HOST), null);
  });

  it("finds a link whatever the case of its tag or the space after its name", () => {
    for (const html of [
      '<p><a href="https://example.com/page">page</a></p>',
      '<p><A HREF="https://example.com/page">page</A></p>',
      '<p><a\nhref="https://example.com/page">page</a></p>',
      '<p><a\thref="https://example.com/page">page</a></p>',
    ]) {
      assert.equal(firstCardLink(html, HOST), "https://example.com/page", html);
    }
  });

  it("parses when an href is not literally on this instance, entities and lookalikes too", () => {
    const tag = '<a href="https://wren.example/tags/x" class="mention hashtag" rel="tag">#x</a>';
    for (const [html, found] of [
      [`<p>${tag} <a href="https://example.com/">e</a></p>`, "https://example.com/"],
      [`<p>${tag} <a href="&#104;ttps://example.com/">e</a></p>`, "https://example.com/"],
      [`<p>${tag} <a href=https://example.com/>e</a></p>`, "https://example.com/"],
      [
        `<p>${tag} <a href="https://wren.example.evil.com/">e</a></p>`,
        "https://wren.example.evil.com/",
      ],
      [
        `<p>${tag} <a href="https://wren.example@example.com/">e</a></p>`,
        "https://wren.example@example.com/",
      ],
      [`<p>${tag} <a HREF = 'https://example.com/'>e</a></p>`, "https://example.com/"],
    ] as const) {
      assert.equal(firstCardLink(html, HOST), found, html);
    }
  });

  it("skips hashtags, mentions and this instance's own pages", () => {
    const html =
      '<p><a href="https://wren.example/tags/bench" class="mention hashtag" rel="tag">#bench</a> ' +
      '<span class="h-card"><a href="https://other.example/@ann" class="u-url mention">@ann</a></span> ' +
      '<a href="https://wren.example/about">about</a></p>';
    assert.equal(firstCardLink(html, HOST), null);
  });
});
