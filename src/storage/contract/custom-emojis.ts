// Storage contract: custom emojis, found by exact shortcode within a domain.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import { type ContractContext, ids, sorted } from "./context.ts";
import { makeEmoji } from "./fixtures-features.ts";

const codes = (emojis: readonly CustomEmoji[]) => emojis.map((e) => e.shortcode);

export function customEmojiContract(t: ContractContext): void {
  describe("custom emojis", () => {
    const store = () => t.storage.customEmojis;

    it("round-trips, replaces and deletes", async () => {
      const emoji = makeEmoji({ id: "10", shortcode: "wren", category: "birds" });
      await store().put(emoji);
      assert.deepEqual(await store().get("10"), emoji);
      assert.equal(await store().get("11"), undefined);
      const hidden = { ...emoji, visibleInPicker: false };
      await store().put(hidden);
      assert.deepEqual(await store().findByShortcode("wren", null), hidden);
      assert.equal(await store().delete("10"), true);
      assert.equal(await store().delete("10"), false);
      assert.equal(await store().get("10"), undefined);
      assert.equal(await store().findByShortcode("wren", null), undefined);
      assert.deepEqual(await store().listLocal(), []);
    });

    it("finds by shortcode case-sensitively, local and remote apart", async () => {
      await store().put(makeEmoji({ id: "10", shortcode: "wren" }));
      await store().put(makeEmoji({ id: "11", shortcode: "Wren" }));
      await store().put(makeEmoji({ id: "12", shortcode: "wren", domain: "remote.example" }));
      assert.equal((await store().findByShortcode("wren", null))?.id, "10");
      assert.equal((await store().findByShortcode("Wren", null))?.id, "11");
      assert.equal(await store().findByShortcode("WREN", null), undefined);
      assert.equal((await store().findByShortcode("wren", "remote.example"))?.id, "12");
      assert.equal((await store().findByShortcode("wren", "Remote.Example"))?.id, "12");
      assert.equal(await store().findByShortcode("Wren", "remote.example"), undefined);
      assert.equal(await store().findByShortcode("wren", "other.example"), undefined);
    });

    it("finds many shortcodes of one domain at once", async () => {
      await store().put(makeEmoji({ id: "10", shortcode: "wren" }));
      await store().put(makeEmoji({ id: "11", shortcode: "robin" }));
      await store().put(makeEmoji({ id: "12", shortcode: "finch", domain: "remote.example" }));
      const found = await store().findByShortcodes(
        ["wren", "finch", "robin", "Wren", "nope"],
        null,
      );
      assert.deepEqual(sorted([...found.keys()]), ["robin", "wren"]);
      assert.equal(found.get("robin")?.id, "11");
      const remote = await store().findByShortcodes(["wren", "finch"], "remote.example");
      assert.deepEqual([...remote.keys()], ["finch"]);
      assert.equal((await store().findByShortcodes([], null)).size, 0);
    });

    it("lists local emojis by shortcode, leaving out remote ones", async () => {
      await Promise.all(
        [
          makeEmoji({ id: "10", shortcode: "wren" }),
          makeEmoji({ id: "11", shortcode: "blackbird" }),
          makeEmoji({ id: "12", shortcode: "aardvark", domain: "remote.example" }),
          makeEmoji({ id: "13", shortcode: "robin", visibleInPicker: false }),
          makeEmoji({ id: "14", shortcode: "blackbird_2" }),
        ].map((e) => store().put(e)),
      );
      const local = await store().listLocal();
      assert.deepEqual(codes(local), ["blackbird", "blackbird_2", "robin", "wren"]);
      assert.deepEqual(ids(local), ["11", "14", "13", "10"]);
    });

    it("follows a renamed emoji to its new shortcode", async () => {
      await store().put(makeEmoji({ id: "10", shortcode: "wren" }));
      await store().put(makeEmoji({ id: "10", shortcode: "jenny_wren" }));
      assert.equal(await store().findByShortcode("wren", null), undefined);
      assert.equal((await store().findByShortcode("jenny_wren", null))?.id, "10");
      assert.deepEqual(codes(await store().listLocal()), ["jenny_wren"]);
    });
  });
}
