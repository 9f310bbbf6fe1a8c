// Admin domain blocks: which hosts a block covers (subdomains and ports yes, parents no), and
// `wren domain block|unblock|list` as an operator runs them, through a running server's admin
// socket (ending follows with the domain's accounts) and with the server stopped.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import {
  blockCandidates,
  blockDomain,
  isDomainBlocked,
  normalizeDomain,
  unblockDomain,
} from "../../src/services/domain-blocks/domain-blocks.ts";
import { makeFollow } from "../../src/storage/contract/fixtures.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { runWren } from "./run-wren.ts";

describe("domain block matching", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("normalises case, trailing dots, IDNs and IPv6, and refuses what is not a host", () => {
    assert.equal(normalizeDomain(" Spam.EXAMPLE. "), "spam.example");
    assert.equal(normalizeDomain("bücher.example"), "xn--bcher-kva.example");
    assert.equal(normalizeDomain("Example.com:8443"), "example.com:8443");
    assert.equal(normalizeDomain("[::1]:4431"), "[::1]:4431");
    assert.equal(normalizeDomain("::1"), "[::1]");
    for (const bad of ["", "https://x.example/", "bob@x.example", "a b.example", "x.example/p"]) {
      assert.throws(() => normalizeDomain(bad), /Not a domain/, bad);
    }
  });

  it("lists the entries that would cover a host, never a parent's", () => {
    assert.deepEqual(blockCandidates("a.b.example.com"), [
      "a.b.example.com",
      "b.example.com",
      "example.com",
    ]);
    // A top-level domain alone is never a candidate of a longer name.
    assert.deepEqual(blockCandidates("Social.Example:8080"), [
      "social.example:8080",
      "social.example",
    ]);
    assert.deepEqual(blockCandidates("127.0.0.1:4431"), ["127.0.0.1:4431", "127.0.0.1"]);
    assert.deepEqual(blockCandidates("localhost"), ["localhost"]);
    assert.deepEqual(blockCandidates("not a host"), []);
  });

  it("blocks the domain and its subdomains on any port, not its parent or look-alikes", async () => {
    const ctx = server.wren.ctx;
    await blockDomain(ctx, "spam.example");
    await blockDomain(ctx, "only.example:8443");
    const blocked = ["spam.example", "SPAM.example.", "a.b.spam.example", "spam.example:443"];
    const open = [
      "example",
      "notspam.example",
      "spam.example.org",
      "xspam.example",
      "only.example",
      "only.example:8444",
    ];
    for (const host of blocked) assert.equal(await isDomainBlocked(ctx, host), true, host);
    for (const host of open) assert.equal(await isDomainBlocked(ctx, host), false, host);
    assert.equal(await isDomainBlocked(ctx, "sub.only.example:8443"), true);
    assert.equal(await unblockDomain(ctx, "Spam.Example"), true);
    assert.equal(await isDomainBlocked(ctx, "a.b.spam.example"), false);
    assert.equal(await unblockDomain(ctx, "spam.example"), false);
  });

  it("refuses to block this server's own domain", async () => {
    const ctx = server.wren.ctx;
    const own = new URL(server.url).host;
    await assert.rejects(blockDomain(ctx, own), /own domain/);
    await assert.rejects(blockDomain(ctx, own.replace(/:\d+$/, "")), /own domain/);
    assert.equal(await isDomainBlocked(ctx, own), false);
  });
});

function scenario(
  mode: string,
  setup: () => Promise<{ env: Record<string, string>; dataDir: string; server?: TestServer }>,
) {
  describe(`wren domain commands, ${mode}`, () => {
    let env: Record<string, string>;
    let dataDir: string;
    let server: TestServer | undefined;
    before(async () => {
      ({ env, dataDir, server } = await setup());
    });
    after(async () => {
      await server?.close();
      if (!server) await rm(dataDir, { recursive: true, force: true });
    });

    it("block prints the stored domain; list shows it; unblock lifts it", async () => {
      const block = await runWren(["domain", "block", "Spam.Example."], env);
      assert.equal(block.code, 0, block.stderr);
      assert.equal(block.stdout, "spam.example\n");
      const again = await runWren(["domain", "block", "spam.example"], env);
      assert.equal(again.code, 0, again.stderr);
      await runWren(["domain", "block", "other.example"], env);

      const list = await runWren(["domain", "list"], env);
      assert.equal(list.code, 0, list.stderr);
      const rows = list.stdout
        .trim()
        .split("\n")
        .map((line) => line.split("\t"));
      assert.deepEqual(rows.map((r) => r[0]).sort(), ["other.example", "spam.example"]);
      for (const row of rows) assert.ok(!Number.isNaN(Date.parse(row[1] ?? "")), row.join(" "));

      const unblock = await runWren(["domain", "unblock", "other.example"], env);
      assert.equal(unblock.code, 0, unblock.stderr);
      const missing = await runWren(["domain", "unblock", "other.example"], env);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /not blocked/);
      const after = await runWren(["domain", "list"], env);
      assert.match(after.stdout, /^spam\.example\t/);
      assert.doesNotMatch(after.stdout, /other\.example/);
    });

    it("refuses what is not a domain, and a missing argument", async () => {
      const url = await runWren(["domain", "block", "https://evil.example/"], env);
      assert.equal(url.code, 1);
      assert.match(url.stderr, /Not a domain/);
      const none = await runWren(["domain", "block"], env);
      assert.equal(none.code, 2);
    });
  });
}

scenario("server stopped (direct storage)", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "wren-cli-domain-"));
  return { env: { WREN_DATA_DIR: dataDir }, dataDir };
});

scenario("server running (admin socket)", async () => {
  const server = await startTestServer();
  return { env: { WREN_DATA_DIR: server.dataDir }, dataDir: server.dataDir, server };
});

describe("wren domain block ends follows with the domain's accounts", () => {
  let server: TestServer;
  let alice: TestUser;
  let spam: Account;
  let spamSub: Account;
  let fine: Account;

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    const { storage, ids } = server.wren.ctx;
    spam = remoteAccountRecord(server, "bob", "spam.example");
    spamSub = remoteAccountRecord(server, "carol", "eu.spam.example");
    fine = remoteAccountRecord(server, "dave", "fine.example");
    for (const account of [spam, spamSub, fine]) await storage.accounts.put(account);
    const edge = (accountId: string, targetId: string) =>
      makeFollow({ id: ids.next(), accountId, targetId });
    const me = alice.account.id;
    await storage.follows.put(edge(me, spam.id));
    await storage.follows.put(edge(spam.id, me));
    await storage.follows.put(edge(spamSub.id, me));
    await storage.followRequests.put(edge(me, spamSub.id));
    await storage.follows.put(edge(me, fine.id));
    await storage.follows.put(edge(fine.id, me));
  });
  after(() => server.close());

  it("removes follows and requests both ways, keeps the others", async () => {
    const result = await runWren(["domain", "block", "spam.example"], {
      WREN_DATA_DIR: server.dataDir,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /ended 4 follows/);
    const { follows, followRequests } = server.wren.ctx.storage;
    const me = alice.account.id;
    assert.equal(await follows.get(me, spam.id), undefined);
    assert.equal(await follows.get(spam.id, me), undefined);
    assert.equal(await follows.get(spamSub.id, me), undefined);
    assert.equal(await followRequests.get(me, spamSub.id), undefined);
    assert.ok(await follows.get(me, fine.id));
    assert.ok(await follows.get(fine.id, me));

    // The API agrees: alice follows and is followed by dave only.
    const rel = await server.request(
      `/api/v1/accounts/relationships?id[]=${spam.id}&id[]=${fine.id}`,
      { token: alice.token },
    );
    const body = (await rel.json()) as { following: boolean; followed_by: boolean }[];
    assert.deepEqual(
      body.map((r) => [r.following, r.followed_by]),
      [
        [false, false],
        [true, true],
      ],
    );
  });
});
