import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isUnicodeEmoji } from "./unicode-emoji.ts";

describe("isUnicodeEmoji", () => {
  it("accepts single emojis, with skin tones, ZWJ sequences, flags and keycaps", () => {
    for (const name of ["🤔", "👍🏽", "🏳️‍🌈", "👩‍👩‍👧‍👦", "🇫🇷", "1️⃣", "❤️", "❤"]) {
      assert.equal(isUnicodeEmoji(name), true, name);
    }
  });

  it("refuses text, digits, two emojis, shortcodes and empty names", () => {
    for (const name of ["a", "1", "#", "🤔🤔", "bongoCat", ":blob:", "", " 🤔", "🤔\u0000"]) {
      assert.equal(isUnicodeEmoji(name), false, JSON.stringify(name));
    }
  });
});
