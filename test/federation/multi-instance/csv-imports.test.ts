// Moving in with Mastodon's CSV files, between three real Wren servers: alice on A imports files
// written by hand in Mastodon's formats that name accounts and statuses of B (resolved for real,
// over WebFinger) and of A itself; rows that do not resolve are listed as failed with the
// reason. Overwrite mode undoes what the file leaves out. What alice then exports imports on a
// fresh server C into the same follows, lists, blocks, mutes, domain blocks and bookmarks.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runAdminOperation } from "../../../src/admin/operations.ts";
import type { ImportStatus } from "../../../src/services/imports/import-status.ts";
import type { Json } from "../../graph/helpers.ts";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  handle,
  type Instance,
  relationship,
  resolveAccount,
  startFederation,
  type TestFederation,
  user,
} from "../../helpers/federation.ts";

describe("CSV imports and exports between servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let c: Instance;
  let alice: TestUser;
  let dave: TestUser;
  let bobStatus: Json;
  const missingStatus = () => `https://${b.domain}/users/bob/statuses/1`;

  const admin = (instance: Instance, name: string, args: Record<string, unknown>) =>
    runAdminOperation(instance.wren.ctx, name, args);

  /** Imports `text` for alice on `instance` and waits until every row was worked through. */
  async function importCsv(
    instance: Instance,
    type: string,
    text: string,
    overwrite = false,
  ): Promise<ImportStatus> {
    const { id } = (await admin(instance, "import.start", {
      username: "alice",
      type,
      text,
      overwrite,
    })) as { id: string };
    return eventually(
      async () => {
        const status = (await admin(instance, "import.status", { id })) as ImportStatus;
        assert.notEqual(status.finishedAt, null, JSON.stringify(status));
        return status;
      },
      { timeout: 30_000 },
    );
  }

  const accountOn = (instance: Instance, who: string) => resolveAccount(instance, alice.token, who);
  const exportCsv = async (instance: Instance, type: string) =>
    (await admin(instance, "export.csv", { username: "alice", type })) as string;
  /** The lines of a file, a header first and the rows in any order (exports are newest first). */
  const lines = (text: string, header = false) => {
    const all = text.split("\n");
    assert.equal(all.pop(), "", "the file ends with a newline");
    return header ? [all[0], ...all.slice(1).sort()] : all.sort();
  };

  before(async () => {
    federation = await startFederation(3);
    [a, b, c] = federation.instances as [Instance, Instance, Instance];
    alice = await user(a, "alice");
    const bob = await user(b, "bob");
    await user(b, "carol");
    dave = await user(a, "dave");
    bobStatus = await api(b, bob.token, "POST", "/api/v1/statuses", {
      status: "Worth keeping",
      visibility: "public",
    });
  });
  after(() => federation.close());

  it("imports follows with their options, listing the accounts that do not resolve", async () => {
    const file = [
      "Account address,Show boosts,Notify on new posts,Languages",
      `${handle(b, "bob")},false,true,"en, de"`,
      `@${handle(b, "carol")},true,false,`,
      `${handle(a, "dave")},true,false,`,
      `${handle(b, "nobody")},true,false,`,
      "",
    ].join("\n");
    const status = await importCsv(a, "following", file);
    assert.equal(status.total, 4);
    assert.equal(status.processed, 4);
    assert.equal(status.failed, 1);
    assert.deepEqual(
      status.failures.map((f) => [f.row, f.value]),
      [[4, handle(b, "nobody")]],
    );
    assert.match(status.failures[0]?.reason ?? "", /Cannot find the account/);

    const bobOnA = await accountOn(a, handle(b, "bob"));
    const rel = await eventually(async () => {
      const r = await relationship(a, alice.token, bobOnA.id);
      assert.equal(r.following, true);
      return r;
    });
    assert.equal(rel.showing_reblogs, false);
    assert.equal(rel.notifying, true);
    assert.deepEqual(rel.languages, ["en", "de"]);
    assert.equal((await relationship(a, alice.token, dave.account.id)).following, true);
  });

  it("imports lists without a header, following their members, and lists failures", async () => {
    const file = [
      `Friends,${handle(b, "bob")}`,
      `Friends,${handle(b, "ghost")}`,
      `Work,${handle(a, "dave")}`,
    ].join("\r\n");
    const status = await importCsv(a, "lists", file);
    assert.deepEqual(
      status.failures.map((f) => [f.row, f.value]),
      [[2, `Friends: ${handle(b, "ghost")}`]],
    );
    const lists = await api(a, alice.token, "GET", "/api/v1/lists");
    assert.deepEqual(lists.map((l: Json) => l.title).sort(), ["Friends", "Work"]);
    const members = async (title: string) => {
      const list = lists.find((l: Json) => l.title === title);
      const accounts = await api(a, alice.token, "GET", `/api/v1/lists/${list.id}/accounts`);
      return accounts.map((x: Json) => x.acct);
    };
    assert.deepEqual(await members("Friends"), [handle(b, "bob")]);
    assert.deepEqual(await members("Work"), ["dave"]);
  });

  it("imports blocks (the old one-column file), mutes, domain blocks and bookmarks", async () => {
    assert.equal((await importCsv(a, "blocks", `${handle(b, "carol")}\n`)).failed, 0);
    const mutes = `Account address,Hide notifications\n${handle(a, "dave")},false\n`;
    assert.equal((await importCsv(a, "mutes", mutes)).failed, 0);
    assert.equal((await importCsv(a, "domain-blocks", "Spam.Example\n")).failed, 0);
    const bookmarks = await importCsv(a, "bookmarks", `${bobStatus.uri}\n${missingStatus()}\n`);
    assert.deepEqual(
      bookmarks.failures.map((f) => [f.row, f.value]),
      [[2, missingStatus()]],
    );

    const carol = await accountOn(a, handle(b, "carol"));
    const carolRel = await relationship(a, alice.token, carol.id);
    assert.equal(carolRel.blocking, true);
    assert.equal(carolRel.following, false, "a block ends the follow");
    const daveRel = await relationship(a, alice.token, dave.account.id);
    assert.equal(daveRel.muting, true);
    assert.equal(daveRel.muting_notifications, false);
    assert.deepEqual(await api(a, alice.token, "GET", "/api/v1/domain_blocks"), ["spam.example"]);
    const marked = await api(a, alice.token, "GET", "/api/v1/bookmarks");
    assert.deepEqual(
      marked.map((s: Json) => s.uri),
      [bobStatus.uri],
    );
  });

  it("exports what Mastodon exports, in its formats", async () => {
    assert.deepEqual(lines(await exportCsv(a, "following"), true), [
      "Account address,Show boosts,Notify on new posts,Languages",
      `${handle(b, "bob")},false,true,"en, de"`,
      `${handle(a, "dave")},true,false,`,
    ]);
    assert.equal(await exportCsv(a, "blocks"), `${handle(b, "carol")}\n`);
    assert.equal(
      await exportCsv(a, "mutes"),
      `Account address,Hide notifications\n${handle(a, "dave")},false\n`,
    );
    assert.equal(await exportCsv(a, "domain-blocks"), "spam.example\n");
    assert.equal(await exportCsv(a, "bookmarks"), `${bobStatus.uri}\n`);
    assert.equal(
      await exportCsv(a, "lists"),
      `Friends,${handle(b, "bob")}\nWork,${handle(a, "dave")}\n`,
    );
  });

  it("reproduces follows, lists, blocks, mutes and bookmarks on a fresh server", async () => {
    const exported: Record<string, string> = {};
    for (const type of ["following", "lists", "blocks", "mutes", "domain-blocks", "bookmarks"]) {
      exported[type] = await exportCsv(a, type);
    }
    alice = await user(c, "alice");
    for (const [type, text] of Object.entries(exported)) {
      const status = await importCsv(c, type, text);
      assert.equal(status.failed, 0, `${type}: ${JSON.stringify(status.failures)}`);
    }
    const bobOnC = await accountOn(c, handle(b, "bob"));
    await eventually(async () => {
      assert.equal((await relationship(c, alice.token, bobOnC.id)).following, true);
    });
    const daveOnC = await accountOn(c, handle(a, "dave"));
    await eventually(async () => {
      assert.equal((await relationship(c, alice.token, daveOnC.id)).following, true);
    });
    for (const type of ["following", "blocks", "mutes", "domain-blocks", "bookmarks", "lists"]) {
      assert.deepEqual(lines(await exportCsv(c, type)), lines(exported[type] ?? ""), type);
    }
  });

  it("overwrite mode undoes the follows, blocks and the rest the file leaves out", async () => {
    const following = `Account address,Show boosts,Notify on new posts,Languages\n${handle(a, "dave")},true,false,\n`;
    assert.equal((await importCsv(c, "following", following, true)).failed, 0);
    const blocks = `${handle(b, "bob")}\n`;
    assert.equal((await importCsv(c, "blocks", blocks, true)).failed, 0);
    assert.equal(
      await exportCsv(c, "following"),
      `Account address,Show boosts,Notify on new posts,Languages\n${handle(a, "dave")},true,false,\n`,
    );
    assert.equal(await exportCsv(c, "blocks"), blocks);
    const carolOnC = await accountOn(c, handle(b, "carol"));
    assert.equal((await relationship(c, alice.token, carolOnC.id)).blocking, false);

    // A header alone: no mutes at all. Lists the file does not name are deleted.
    const noMutes = await importCsv(c, "mutes", "Account address,Hide notifications\n", true);
    assert.equal(noMutes.total, 0);
    assert.equal(await exportCsv(c, "mutes"), "Account address,Hide notifications\n");
    assert.equal((await importCsv(c, "lists", `Work,${handle(a, "dave")}\n`, true)).failed, 0);
    assert.equal(await exportCsv(c, "lists"), `Work,${handle(a, "dave")}\n`);
    assert.equal((await importCsv(c, "domain-blocks", "other.example\n", true)).failed, 0);
    assert.equal(await exportCsv(c, "domain-blocks"), "other.example\n");
  });
});
