import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CustomFilter, FilterKeyword } from "./filter.ts";
import { compileFilters, matchFilters, searchableText } from "./filter-match.ts";

const now = new Date("2026-01-01T00:00:00.000Z");

function filter(keywords: Omit<FilterKeyword, "id">[], extra: Partial<CustomFilter> = {}) {
  return {
    id: "1",
    accountId: "9",
    title: "t",
    context: ["home"],
    action: "warn",
    expiresAt: null,
    keywords: keywords.map((k, i) => ({ id: String(10 + i), ...k })),
    statuses: [],
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ...extra,
  } satisfies CustomFilter;
}

const matches = (f: CustomFilter, text: string, statusIds: string[] = ["100"]) =>
  matchFilters(compileFilters([f], now), { statusIds, text });

describe("filter matching", () => {
  it("whole words match only at word boundaries, case-insensitively", () => {
    const f = filter([{ keyword: "cat", wholeWord: true }]);
    assert.deepEqual(matches(f, "A CAT sat")[0]?.keywordMatches, ["CAT"]);
    assert.equal(matches(f, "concatenate").length, 0);
    assert.equal(matches(f, "cats").length, 0);
    assert.equal(
      matches(f, "chat-noir écat").length,
      0,
      "letters beyond ASCII are word characters",
    );
    assert.equal(matches(f, "(cat)").length, 1);
  });

  it("a keyword not ending in a word character has no boundary on that side", () => {
    const f = filter([{ keyword: "#wren", wholeWord: true }]);
    assert.equal(matches(f, "love #wren").length, 1);
    assert.equal(matches(f, "love #wrens").length, 0);
    assert.equal(matches(filter([{ keyword: "c++", wholeWord: true }]), "I use c++!").length, 1);
  });

  it("without whole_word a keyword matches inside words; special characters are literal", () => {
    assert.deepEqual(
      matches(filter([{ keyword: "cat", wholeWord: false }]), "concatenate")[0]?.keywordMatches,
      ["cat"],
    );
    assert.equal(matches(filter([{ keyword: "a.c", wholeWord: false }]), "abc").length, 0);
    assert.equal(
      matches(filter([{ keyword: "well-known", wholeWord: true }]), "a well-known [x]").length,
      1,
    );
  });

  it("statuses named by the filter match the status and its boosts", () => {
    const f = filter([], { statuses: [{ id: "5", statusId: "100" }] });
    assert.deepEqual(matches(f, "x", ["200", "100"])[0]?.statusMatches, ["100"]);
    assert.deepEqual(matches(f, "x", ["200"]), []);
  });

  it("expired filters do not apply", () => {
    const f = filter([{ keyword: "cat", wholeWord: false }], {
      expiresAt: "2025-12-31T23:59:59.000Z",
    });
    assert.equal(matches(f, "cat").length, 0);
    const later = filter([{ keyword: "cat", wholeWord: false }], {
      expiresAt: "2026-01-01T00:00:01.000Z",
    });
    assert.equal(matches(later, "cat").length, 1);
  });

  it("searchable text holds the warning, text, poll options and media descriptions", () => {
    const text = searchableText({
      spoilerText: "cw",
      plainText: "body",
      pollOptions: ["yes", "no"],
      mediaDescriptions: ["a heron", null],
    });
    for (const word of ["cw", "body", "no", "heron"]) {
      assert.equal(matches(filter([{ keyword: word, wholeWord: true }]), text).length, 1, word);
    }
  });
});
