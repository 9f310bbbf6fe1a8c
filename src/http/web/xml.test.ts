import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { el, xmlDocument, xmlText } from "./xml.ts";

describe("xml writer", () => {
  it("escapes markup in text and attributes", () => {
    assert.equal(
      xmlText(`<a href="x">'&'</a>`),
      "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;",
    );
    const doc = xmlDocument(el("r", { a: `"&<` }, [el("t", undefined, "x<y"), null, el("e", {})]));
    assert.equal(
      doc,
      `<?xml version="1.0" encoding="UTF-8"?>\n<r a="&quot;&amp;&lt;"><t>x&lt;y</t><e/></r>\n`,
    );
  });

  it("drops characters XML cannot carry and keeps the rest", () => {
    assert.equal(xmlText("a\u0000b\u0001c\u001fd\ufffe\uffff"), "abcd");
    assert.equal(xmlText("tab\tnl\ncr\r"), "tab\tnl\ncr\r");
    assert.equal(xmlText("lone \ud800 high, lone \udc00 low"), "lone  high, lone  low");
    assert.equal(xmlText("emoji 🐦 é"), "emoji 🐦 é");
  });

  it("leaves out undefined attributes", () => {
    assert.equal(xmlDocument(el("m", { a: undefined, b: 2 })).split("\n")[1], `<m b="2"/>`);
  });
});
