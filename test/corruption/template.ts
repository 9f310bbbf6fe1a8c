// The data directory the corruption suite damages copies of: two local users, alice with three
// public posts and bob with one, closed cleanly (so it has a status snapshot).

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStatus } from "../../src/services/statuses/create-status.ts";
import { type SeededUser, seedUsers, withOfflineServices } from "../helpers/wren-process.ts";

export interface Template {
  dir: string;
  alice: SeededUser;
  bob: SeededUser;
  /** alice's posts, oldest first, and bob's one. */
  alicePosts: string[];
  bobPost: string;
}

export async function makeTemplate(): Promise<Template> {
  const dir = await mkdtemp(join(tmpdir(), "wren-corruption-template-"));
  const [alice, bob] = (await seedUsers(dir, ["alice", "bob"])) as [SeededUser, SeededUser];
  const post = (user: SeededUser, text: string) =>
    withOfflineServices(dir, async (ctx) => {
      const status = await createStatus(ctx, {
        accountId: user.id,
        applicationId: null,
        text,
        visibility: "public",
      });
      return status.id;
    });
  const alicePosts = [await post(alice, "first"), await post(alice, "second")];
  alicePosts.push(await post(alice, "third"));
  const bobPost = await post(bob, "hello from bob");
  return { dir, alice, bob, alicePosts, bobPost };
}
