import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Visibility } from "../domain/account.ts";
import type { ServiceContext } from "../services/context.ts";
import { makeFollow, makeStatus } from "../storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { deletionIsPublic, visibleToAnyone, visibleToReader } from "./visibility.ts";

const AUTHOR = "1";
const FOLLOWER = "2";
const STRANGER = "3";

const status = (visibility: Visibility, deleted = false) =>
  makeStatus({ id: "100", accountId: AUTHOR, visibility, deleted });

describe("views/visibility", () => {
  // A real storage holding just the facts the rule reads: FOLLOWER follows AUTHOR.
  let dir: string;
  let storage: Storage;
  let ctx: ServiceContext;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-visibility-"));
    storage = await openJsonFileStorage(dir);
    await storage.follows.put(makeFollow({ id: "50", accountId: FOLLOWER, targetId: AUTHOR }));
    ctx = { storage } as unknown as ServiceContext;
  });
  after(async () => {
    await storage?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("shows public and unlisted statuses to anyone, never deleted ones", () => {
    assert.equal(visibleToAnyone(status("public")), true);
    assert.equal(visibleToAnyone(status("unlisted")), true);
    assert.equal(visibleToAnyone(status("private")), false);
    assert.equal(visibleToAnyone(status("direct")), false);
    assert.equal(visibleToAnyone(status("public", true)), false);
  });

  it("reveals a deletion only for what anyone could see before", () => {
    assert.equal(deletionIsPublic(status("public", true)), true);
    assert.equal(deletionIsPublic(status("unlisted", true)), true);
    assert.equal(deletionIsPublic(status("private", true)), false);
    assert.equal(deletionIsPublic(status("direct", true)), false);
    assert.equal(deletionIsPublic(status("public")), false);
  });

  it("identifies a signed reader only when the status is not open to all", async () => {
    let asked = 0;
    const as = (viewerId: string | null) => async () => {
      asked++;
      return viewerId;
    };
    assert.equal(await visibleToReader(ctx, status("public"), as(null)), true);
    assert.equal(asked, 0);
    assert.equal(await visibleToReader(ctx, status("private"), as(null)), false);
    assert.equal(await visibleToReader(ctx, status("private"), as(STRANGER)), false);
    assert.equal(await visibleToReader(ctx, status("private"), as(FOLLOWER)), true);
    assert.equal(asked, 3);
    assert.equal(await visibleToReader(ctx, status("private", true), as(FOLLOWER)), false);
  });
});
