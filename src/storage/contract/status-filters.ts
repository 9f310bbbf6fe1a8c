// Storage contract: StatusFilter on an account's statuses (Mastodon's account statuses options).

import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import type { IdPage, StatusFilter } from "../ports.ts";
import { type ContractContext, ids } from "./context.ts";
import { makeStatus } from "./fixtures.ts";

export function statusFilterContract(t: ContractContext): void {
  describe("statuses: StatusFilter", () => {
    beforeEach(async () => {
      const author = "1";
      // Untagged unless a test's case needs tags.
      const status = (fields: Parameters<typeof makeStatus>[0]) =>
        makeStatus({ tags: [], ...fields });
      await Promise.all(
        [
          status({ id: "10", accountId: author, tags: ["Wren"] }),
          status({ id: "11", accountId: author, inReplyToId: "5", inReplyToAccountId: "2" }),
          status({ id: "12", accountId: author, inReplyToId: "10", inReplyToAccountId: "1" }),
          status({ id: "13", accountId: author, reblogOfId: "5", tags: [] }),
          status({ id: "14", accountId: author, mediaIds: ["m1"], visibility: "unlisted" }),
          status({ id: "15", accountId: author, visibility: "private", tags: ["x", "WREN"] }),
          status({ id: "16", accountId: author, visibility: "direct", tags: [] }),
          status({ id: "17", accountId: author, mediaIds: ["m2"], deleted: true }),
          status({ id: "18", accountId: author, tags: ["wrenfan"] }),
          status({ id: "19", accountId: "2", mediaIds: ["m3"] }),
        ].map((s) => t.storage.statuses.put(s)),
      );
    });

    const list = async (filter: StatusFilter, page: IdPage = { limit: 40 }) =>
      ids(await t.storage.statuses.listByAccount("1", page, filter));

    it("lists everything but deleted statuses without a filter", async () => {
      const all = ["18", "16", "15", "14", "13", "12", "11", "10"];
      assert.deepEqual(await list({}), all);
      assert.deepEqual(
        await list({ excludeReplies: false, excludeReblogs: false, onlyMedia: false }),
        all,
      );
    });

    it("excludeReplies leaves out replies to others but keeps self-replies", async () => {
      assert.deepEqual(await list({ excludeReplies: true }), [
        "18",
        "16",
        "15",
        "14",
        "13",
        "12",
        "10",
      ]);
    });

    it("excludeReblogs leaves out reblogs", async () => {
      assert.deepEqual(await list({ excludeReblogs: true }), [
        "18",
        "16",
        "15",
        "14",
        "12",
        "11",
        "10",
      ]);
    });

    it("onlyMedia keeps statuses with attachments", async () => {
      assert.deepEqual(await list({ onlyMedia: true }), ["14"]);
    });

    it("tagged matches whole hashtags case-insensitively", async () => {
      assert.deepEqual(await list({ tagged: "wren" }), ["15", "10"]);
      assert.deepEqual(await list({ tagged: "WrEn" }), ["15", "10"]);
      assert.deepEqual(await list({ tagged: "WRENFAN" }), ["18"]);
      assert.deepEqual(await list({ tagged: "nothing" }), []);
    });

    it("visibilities keeps only those listed", async () => {
      assert.deepEqual(await list({ visibilities: ["public", "unlisted"] }), [
        "18",
        "14",
        "13",
        "12",
        "11",
        "10",
      ]);
      assert.deepEqual(await list({ visibilities: ["direct"] }), ["16"]);
      assert.deepEqual(await list({ visibilities: [] }), []);
    });

    it("combines filters", async () => {
      const filter = { excludeReplies: true, excludeReblogs: true, visibilities: ["public"] };
      assert.deepEqual(await list(filter as StatusFilter), ["18", "12", "10"]);
    });

    it("fills pages with matching statuses, walking past those filtered out", async () => {
      const filter: StatusFilter = { excludeReplies: true, excludeReblogs: true };
      assert.deepEqual(await list(filter, { limit: 3 }), ["18", "16", "15"]);
      assert.deepEqual(await list(filter, { limit: 3, maxId: "15" }), ["14", "12", "10"]);
      assert.deepEqual(await list(filter, { limit: 3, maxId: "10" }), []);
      assert.deepEqual(await list(filter, { limit: 2, minId: "10" }), ["14", "12"]);
      assert.deepEqual(await list(filter, { limit: 2, sinceId: "12" }), ["18", "16"]);
      assert.deepEqual(await list({ onlyMedia: true }, { limit: 1, sinceId: "14" }), []);
    });
  });
}
