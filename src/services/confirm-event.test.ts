// Which events recorded before their write still run after a crash: those whose write is in
// storage (brought up to date from it), not those whose write never happened or was overtaken.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Status } from "../domain/status.ts";
import { CREATED, makeStatus } from "../storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { confirmEvent } from "./confirm-event.ts";

const statusRecord = (id: string, changes: Partial<Status> = {}) =>
  makeStatus({ id, accountId: "1", ...changes });

describe("confirmEvent", () => {
  let dir: string;
  let storage: Storage;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-confirm-"));
    storage = await openJsonFileStorage(dir);
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs a creation whose status is stored, as stored now", async () => {
    await storage.statuses.put(statusRecord("1", { text: "edited since" }));
    const confirmed = await confirmEvent(storage, {
      type: "status.created",
      status: statusRecord("1"),
    });
    assert.equal(confirmed?.type === "status.created" && confirmed.status.text, "edited since");
  });

  it("drops a creation never stored, or deleted since", async () => {
    const missing = { type: "status.created", status: statusRecord("2") } as const;
    assert.equal(await confirmEvent(storage, missing), undefined);
    await storage.statuses.put(
      statusRecord("3", { deleted: true, deletedAt: "2030-01-02T00:00:00Z" }),
    );
    const deleted = { type: "status.created", status: statusRecord("3") } as const;
    assert.equal(await confirmEvent(storage, deleted), undefined);
  });

  it("runs only the edit that was stored", async () => {
    const first = statusRecord("4", { editedAt: "2030-01-01T00:01:00.000Z" });
    const second = statusRecord("4", { editedAt: "2030-01-01T00:02:00.000Z" });
    await storage.statuses.put(first);
    assert.ok(await confirmEvent(storage, { type: "status.updated", status: first }));
    assert.equal(
      await confirmEvent(storage, { type: "status.updated", status: second }),
      undefined,
    );
  });

  it("runs a boost or a favourite only while it is stored", async () => {
    const original = statusRecord("6");
    const reblog = statusRecord("7", { accountId: "2", reblogOfId: "6" });
    const reblogged = { type: "status.reblogged", reblog, original } as const;
    await storage.statuses.put(original);
    assert.equal(await confirmEvent(storage, reblogged), undefined);
    await storage.statuses.put(reblog);
    assert.ok(await confirmEvent(storage, reblogged));

    const favourite = { id: "8", accountId: "2", targetId: "6", createdAt: CREATED, uri: null };
    const favourited = { type: "status.favourited", favourite, status: original } as const;
    assert.equal(await confirmEvent(storage, favourited), undefined);
    await storage.favourites.put(favourite);
    assert.ok(await confirmEvent(storage, favourited));
    await storage.favourites.put({ ...favourite, id: "9" });
    assert.equal(await confirmEvent(storage, favourited), undefined, "favourited again since");
  });

  it("runs a deletion only once the flag is stored", async () => {
    const deleted = statusRecord("5", { deleted: true, deletedAt: "2030-01-02T00:00:00.000Z" });
    await storage.statuses.put(statusRecord("5"));
    assert.equal(
      await confirmEvent(storage, { type: "status.deleted", status: deleted }),
      undefined,
    );
    await storage.statuses.put(deleted);
    assert.ok(await confirmEvent(storage, { type: "status.deleted", status: deleted }));
  });
});
