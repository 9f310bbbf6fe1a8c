import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { firstCardLink } from "./first-link.ts";
import { decodePage, parsePageDetails } from "./open-graph.ts";

describe("firstCardLink", () => {
  const here = "https://wren.example";
  it("skips hashtags, mentions, this server's pages and other schemes", () => {
    const html =
      '<p><a href="https://wren.example/tags/x" class="mention hashtag" rel="tag">#x</a> ' +
      '<span class="h-card"><a href="https://far.example/@bob" class="u-url mention">@bob</a></span> ' +
      '<a href="https://far.example/tags/y" rel="tag">#y</a> ' +
      '<a href="https://wren.example/@alice/1">here</a> <a href="mailto:a@b.example">mail</a> ' +
      '<a href="https://news.example/a?b=1&amp;c=2">news</a> <a href="https://second.example/">2</a></p>';
    assert.equal(firstCardLink(html, here), "https://news.example/a?b=1&c=2");
  });

  it("finds nothing in text without links or with broken ones", () => {
    assert.equal(firstCardLink("<p>plain</p>", here), null);
    assert.equal(firstCardLink('<a href="http://[bad">x</a><a>y</a>', here), null);
  });
});

describe("parsePageDetails", () => {
  it("prefers OpenGraph, falls back to Twitter and plain tags, caps and trims", () => {
    const page = parsePageDetails(
      `<html lang="fr"><head><title> Plain  title </title>
       <meta name="twitter:description" content="From twitter">
       <meta name="description" content="From meta">
       <meta name="author" content="Ann">
       <meta property="og:image" content="https://img.example/a.png">
       <meta property="og:image" content="https://img.example/second.png">
       <meta property="og:site_name" content="${"s".repeat(500)}"></head></html>`,
    );
    assert.equal(page.title, "Plain title");
    assert.equal(page.description, "From twitter");
    assert.equal(page.authorName, "Ann");
    assert.equal(page.image, "https://img.example/a.png");
    assert.equal(page.siteName.length, 300);
    assert.equal(page.language, "fr");
  });

  it("gives empty details for what is not HTML", () => {
    const page = parsePageDetails('{"title": "json"}');
    assert.equal(page.title, "");
    assert.equal(page.image, null);
  });
});

describe("decodePage", () => {
  const latin1 = new Uint8Array([...new TextEncoder().encode("<p>caf"), 0xe9, 0x3c]);
  it("decodes in the charset of the header, else of a meta tag, else UTF-8", () => {
    assert.equal(decodePage(latin1, "iso-8859-1"), "<p>café<");
    const meta = new Uint8Array([
      ...new TextEncoder().encode('<meta charset="windows-1252"><p>caf'),
      0xe9,
    ]);
    assert.ok(decodePage(meta, null).endsWith("café"));
    assert.equal(decodePage(new TextEncoder().encode("<p>café"), null), "<p>café");
    assert.equal(decodePage(new TextEncoder().encode("ok"), "no-such-charset"), "ok");
  });
});
