import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatCsv, parseCsv } from "./csv.ts";
import { ImportFileError, readImportRows } from "./import-rows.ts";

describe("CSV", () => {
  it("reads quoted fields, doubled quotes, CRLF and blank lines", () => {
    assert.deepEqual(parseCsv('a,"b, c"\r\n\r\n"say ""hi""",\n"two\nlines"'), [
      ["a", "b, c"],
      ['say "hi"', ""],
      ["two\nlines"],
    ]);
  });

  it("refuses an unclosed quote and text after a closing one", () => {
    assert.throws(() => parseCsv('"open'), /Unclosed/);
    assert.throws(() => parseCsv('"a"b'), /after quoted field/);
  });

  it("writes as Ruby's CSV: quotes only where needed, nil empty and an empty string quoted", () => {
    assert.equal(formatCsv([["a@b", "en, de", null, ""]]), 'a@b,"en, de",,""\n');
    assert.deepEqual(parseCsv(formatCsv([['x "y"', "1,2"]])), [['x "y"', "1,2"]]);
  });
});

describe("reading Mastodon's import files", () => {
  it("reads following with its header, converting booleans and languages", () => {
    const text = [
      "Account address,Show boosts,Notify on new posts,Languages",
      'bob@b.example,false,TRUE,"en, de"',
      "@carol@b.example,,off,",
    ].join("\n");
    assert.deepEqual(readImportRows("following", text), [
      { acct: "bob@b.example", showReblogs: false, notify: true, languages: ["en", "de"] },
      { acct: "carol@b.example", notify: false },
    ]);
  });

  it("reads the old one-column account files, without a header", () => {
    assert.deepEqual(readImportRows("following", "bob@b.example\n carol@b.example \n"), [
      { acct: "bob@b.example" },
      { acct: "carol@b.example" },
    ]);
    assert.deepEqual(readImportRows("blocks", "bob@b.example"), [{ acct: "bob@b.example" }]);
  });

  it("takes only the columns of the type asked for", () => {
    const mutes = "Account address,Hide notifications\nbob@b.example,false\n";
    assert.deepEqual(readImportRows("mutes", mutes), [
      { acct: "bob@b.example", hideNotifications: false },
    ]);
    // A mutes file imported as blocks: its account column only.
    assert.deepEqual(readImportRows("blocks", mutes), [{ acct: "bob@b.example" }]);
  });

  it("reads lists, domain blocks and bookmarks without headers", () => {
    assert.deepEqual(readImportRows("lists", "Friends, bob@b.example\nWork,dave\n"), [
      { listName: "Friends", acct: "bob@b.example" },
      { listName: "Work", acct: "dave" },
    ]);
    assert.deepEqual(readImportRows("domain-blocks", "Spam.Example\n"), [
      { domain: "spam.example" },
    ]);
    assert.deepEqual(readImportRows("bookmarks", "https://b.example/notes/1\n"), [
      { uri: "https://b.example/notes/1" },
    ]);
  });

  it("refuses empty files, broken CSV and files of another kind", () => {
    assert.throws(() => readImportRows("following", "\n\n"), ImportFileError);
    assert.throws(() => readImportRows("following", '"bob'), /not valid CSV/);
    assert.throws(
      () => readImportRows("domain-blocks", "Account address,Hide notifications\nbob@b,true\n"),
      /does not have the columns of a domain-blocks import/,
    );
  });

  it("keeps an empty row as a row, to be listed as failed", () => {
    assert.deepEqual(readImportRows("blocks", "Account address\n,\nbob@b.example\n"), [
      {},
      { acct: "bob@b.example" },
    ]);
  });
});
