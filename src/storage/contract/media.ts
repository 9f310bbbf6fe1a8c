// Storage contract: media attachments, looked up by id in batches, and the unattached ones
// handed out oldest first for cleanup.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { MediaAttachment } from "../../domain/media.ts";
import { type ContractContext, ids, sorted, tryToMutate } from "./context.ts";
import { CREATED } from "./fixtures.ts";

export function makeMedia(fields: Partial<MediaAttachment> & { id: string }): MediaAttachment {
  return {
    accountId: "1",
    statusId: null,
    type: "image",
    state: "ready",
    failureReason: null,
    contentType: "image/png",
    fileSize: 1234,
    uploadKey: null,
    fileKey: `media_attachments/${fields.id}/original.png`,
    previewKey: `media_attachments/${fields.id}/small.webp`,
    customPreviewKey: null,
    remoteUrl: null,
    description: null,
    focus: null,
    meta: {
      original: { width: 20, height: 10, size: "20x10", aspect: 2 },
      small: { width: 20, height: 10, size: "20x10", aspect: 2 },
    },
    blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
    createdAt: CREATED,
    updatedAt: CREATED,
    ...fields,
  };
}

const at = (minute: number) => `2025-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;

export function mediaContract(t: ContractContext): void {
  describe("media attachments", () => {
    const store = () => t.storage.media;

    it("round-trips, replaces and deletes", async () => {
      const media = makeMedia({ id: "10", description: "a wren", focus: { x: 0.5, y: -0.25 } });
      await store().put(media);
      assert.deepEqual(await store().get("10"), media);
      assert.equal(await store().get("11"), undefined);
      const attached = { ...media, statusId: "99", updatedAt: at(5) };
      await store().put(attached);
      assert.deepEqual(await store().get("10"), attached);
      assert.equal(await store().delete("10"), true);
      assert.equal(await store().delete("10"), false);
      assert.equal(await store().get("10"), undefined);
    });

    it("gets many at once, leaving out missing ids", async () => {
      await Promise.all(["10", "11", "12"].map((id) => store().put(makeMedia({ id }))));
      const found = await store().getMany(["12", "10", "404"]);
      assert.deepEqual(sorted([...found.keys()]), ["10", "12"]);
      assert.equal(found.get("12")?.id, "12");
      assert.equal((await store().getMany([])).size, 0);
    });

    it("keeps its own state: changing a returned attachment changes nothing stored", async () => {
      await store().put(makeMedia({ id: "10" }));
      const media = await store().get("10");
      assert.ok(media?.meta?.original);
      const original = media.meta.original;
      tryToMutate(() => {
        original.width = 999;
      });
      tryToMutate(() => {
        media.description = "changed";
      });
      const again = await store().get("10");
      assert.equal(again?.meta?.original?.width, 20);
      assert.equal(again?.description, null);
    });

    it("lists unattached attachments created before a time, oldest first then by id", async () => {
      await Promise.all([
        store().put(makeMedia({ id: "10", createdAt: at(30) })),
        store().put(makeMedia({ id: "11", createdAt: at(10) })),
        store().put(makeMedia({ id: "9", createdAt: at(20) })),
        store().put(makeMedia({ id: "12", createdAt: at(10) })),
        store().put(makeMedia({ id: "13", createdAt: at(10), statusId: "500" })),
      ]);
      assert.deepEqual(ids(await store().listUnattachedBefore(at(30), 10)), ["11", "12", "9"]);
      assert.deepEqual(ids(await store().listUnattachedBefore(at(59), 2)), ["11", "12"]);
      assert.deepEqual(await store().listUnattachedBefore(at(10), 10), []);
      assert.deepEqual(await store().listUnattachedBefore(at(59), 0), []);
      // Times compare as instants, not as text.
      assert.deepEqual(ids(await store().listUnattachedBefore("2025-01-01T01:15:00+01:00", 10)), [
        "11",
        "12",
      ]);
    });

    it("follows attachment and removal in the unattached list", async () => {
      await store().put(makeMedia({ id: "10", createdAt: at(1) }));
      await store().put(makeMedia({ id: "11", createdAt: at(2) }));
      await store().put(makeMedia({ id: "10", createdAt: at(1), statusId: "500" }));
      assert.deepEqual(ids(await store().listUnattachedBefore(at(59), 10)), ["11"]);
      await store().delete("11");
      assert.deepEqual(await store().listUnattachedBefore(at(59), 10), []);
      // Detached again (its status edited away from it): unattached once more.
      await store().put(makeMedia({ id: "10", createdAt: at(1), statusId: null }));
      assert.deepEqual(ids(await store().listUnattachedBefore(at(59), 10)), ["10"]);
    });

    it("keeps attachments and the unattached order across reopen", async () => {
      const attached = makeMedia({ id: "10", statusId: "500", createdAt: at(1) });
      const processing = makeMedia({
        id: "11",
        state: "processing",
        uploadKey: "uploads/11/upload",
        fileKey: null,
        previewKey: null,
        meta: null,
        blurhash: null,
        createdAt: at(3),
      });
      const older = makeMedia({ id: "12", createdAt: at(2) });
      await Promise.all([attached, processing, older].map((m) => store().put(m)));
      const s = await t.reopen();
      assert.deepEqual(await s.media.get("10"), attached);
      assert.deepEqual(await s.media.get("11"), processing);
      assert.deepEqual(ids(await s.media.listUnattachedBefore(at(59), 10)), ["12", "11"]);
    });
  });
}
