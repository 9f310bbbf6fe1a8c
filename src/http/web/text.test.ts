import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import { emojifyHtml, emojifyText, htmlToText, truncate } from "./text.ts";

const BLOB: CustomEmoji = {
  id: "1",
  shortcode: "blob",
  domain: null,
  imageKey: "emojis/blob.png",
  staticKey: "emojis/blob-static.png",
  category: null,
  visibleInPicker: true,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};
const url = (emoji: CustomEmoji) => `https://files.example/${emoji.staticKey}`;

describe("emojis in text and HTML", () => {
  it("escapes plain text and shows known shortcodes as images", () => {
    assert.equal(
      emojifyText('<b>"hi"</b> :blob: :other:', [BLOB], url),
      '&lt;b&gt;&quot;hi&quot;&lt;/b&gt; <img class="emoji" src="https://files.example/emojis/blob-static.png" alt=":blob:" title=":blob:" draggable="false"> :other:',
    );
  });

  it("never replaces a shortcode inside a tag's attributes", () => {
    const html = '<p><a href="https://x.example/:blob:">see :blob:</a></p>';
    const out = emojifyHtml(html, [BLOB], url);
    assert.ok(out.startsWith('<p><a href="https://x.example/:blob:">see <img class="emoji"'));
  });
});

describe("htmlToText", () => {
  it("joins paragraphs and breaks with spaces and decodes entities", () => {
    assert.equal(
      htmlToText("<p>One &amp; two<br />three</p><p>&lt;four&gt; &#39;five&#x27; &nbsp;</p>"),
      "One & two three <four> 'five'",
    );
  });
});

describe("truncate", () => {
  it("keeps short text and cuts long text at a word with an ellipsis", () => {
    assert.equal(truncate("short", 10), "short");
    assert.equal(truncate("alpha beta gamma delta", 15), "alpha beta…");
  });
});
