// `wren report list|show|resolve|reopen` as an operator runs them, through a running server's
// admin socket and with the server stopped (direct storage): reports filed by local users are
// listed open, shown whole, resolved (by a named moderator or the operator) and reopened.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileReport } from "../../src/services/reports/file-report.ts";
import { createTestUser, createUserWithToken } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { postStatus } from "../timelines/helpers.ts";
import { runWren } from "./run-wren.ts";

interface Filed {
  spam: string;
  plain: string;
  statusId: string;
}

/** alice reports bob twice: once for spam with a post and a comment, once with nothing. */
async function fileReports(server: TestServer): Promise<Filed> {
  const ctx = server.wren.ctx;
  const alice = await createUserWithToken(server, "alice");
  const bob = await createUserWithToken(server, "bob");
  await createTestUser(server, "mod", { role: "moderator" });
  const status = await postStatus(server, bob.token, { status: "Buy <b>now</b>\nat shop" });
  const base = {
    reporterId: alice.account.id,
    targetId: bob.account.id,
    forward: false,
    forwardToDomains: [],
    ruleIds: [],
  };
  const spam = await fileReport(ctx, {
    ...base,
    statusIds: [status.id],
    comment: "Spam account\nsecond line",
    category: "spam",
  });
  const plain = await fileReport(ctx, {
    ...base,
    statusIds: [],
    comment: "",
    category: undefined,
  });
  return { spam: spam.report.id, plain: plain.report.id, statusId: status.id };
}

function rows(stdout: string): string[][] {
  return stdout
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.split("\t"));
}

function scenario(mode: string, stopServer: boolean) {
  describe(`wren report commands, ${mode}`, () => {
    let server: TestServer;
    let env: Record<string, string>;
    let filed: Filed;
    before(async () => {
      server = await startTestServer();
      filed = await fileReports(server);
      env = { WREN_DATA_DIR: server.dataDir };
      if (stopServer) await server.stop();
    });
    after(() => server.close());

    it("lists the open reports, newest first, one tab-separated row each", async () => {
      const list = await runWren(["report", "list"], env);
      assert.equal(list.code, 0, list.stderr);
      const [plain, spam] = rows(list.stdout);
      assert.deepEqual(
        plain?.filter((_, i) => i !== 1),
        [filed.plain, "other", "alice", "bob", "0", "-"],
      );
      assert.deepEqual(
        spam?.filter((_, i) => i !== 1),
        [filed.spam, "spam", "alice", "bob", "1", "Spam account second line"],
      );
      assert.ok(!Number.isNaN(Date.parse(spam?.[1] ?? "")));
      const resolved = await runWren(["report", "list", "--resolved"], env);
      assert.equal(resolved.code, 0, resolved.stderr);
      assert.equal(resolved.stdout, "");
      const limited = await runWren(["report", "list", "--limit", "1"], env);
      assert.deepEqual(
        rows(limited.stdout).map((r) => r[0]),
        [filed.plain],
      );
    });

    it("shows a report with its accounts, comment and statuses", async () => {
      const show = await runWren(["report", "show", filed.spam], env);
      assert.equal(show.code, 0, show.stderr);
      assert.match(show.stdout, new RegExp(`^Report ${filed.spam}\n`));
      assert.match(show.stdout, /^State: +open$/m);
      assert.match(show.stdout, /^Reporter: +alice$/m);
      assert.match(show.stdout, /^Target: +bob \(http:\/\/127\.0\.0\.1:\d+\/users\/bob\)$/m);
      assert.match(show.stdout, /^Category: +spam$/m);
      assert.match(show.stdout, /^Forwarded: no$/m);
      assert.match(show.stdout, /^Comment:\n {2}Spam account\n {2}second line$/m);
      assert.match(
        show.stdout,
        new RegExp(`^ {2}${filed.statusId} +http\\S+/${filed.statusId}$`, "m"),
      );
      assert.match(show.stdout, /^ {4}Buy <b>now<\/b> at shop$/m);
    });

    it("resolves by a moderator, lists it as resolved, and reopens it", async () => {
      const resolve = await runWren(["report", "resolve", filed.spam, "--by", "mod"], env);
      assert.equal(resolve.code, 0, resolve.stderr);
      assert.match(resolve.stderr, /Resolved report/);
      const open = await runWren(["report", "list"], env);
      assert.deepEqual(
        rows(open.stdout).map((r) => r[0]),
        [filed.plain],
      );
      const resolved = await runWren(["report", "list", "--resolved"], env);
      assert.deepEqual(
        rows(resolved.stdout).map((r) => r[0]),
        [filed.spam],
      );
      const show = await runWren(["report", "show", filed.spam], env);
      assert.match(show.stdout, /^State: +resolved at \S+ by mod$/m);
      const again = await runWren(["report", "resolve", filed.spam], env);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /already resolved/);

      const reopen = await runWren(["report", "reopen", filed.spam], env);
      assert.equal(reopen.code, 0, reopen.stderr);
      assert.match(reopen.stderr, /Reopened report/);
      const listed = await runWren(["report", "list"], env);
      assert.deepEqual(
        rows(listed.stdout).map((r) => r[0]),
        [filed.plain, filed.spam],
      );
      const twice = await runWren(["report", "reopen", filed.spam], env);
      assert.match(twice.stderr, /already open/);
      // Without --by: the operator, no account recorded.
      await runWren(["report", "resolve", filed.plain], env);
      const operator = await runWren(["report", "show", filed.plain], env);
      assert.match(operator.stdout, /^State: +resolved at \S+$/m);
    });

    it("refuses unknown reports and ids, and resolvers who are not staff", async () => {
      const unknown = await runWren(["report", "show", "12345"], env);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /No such report/);
      const bad = await runWren(["report", "resolve", "abc"], env);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /not a report id/);
      const stranger = await runWren(["report", "resolve", filed.spam, "--by", "nobody"], env);
      assert.equal(stranger.code, 1);
      assert.match(stranger.stderr, /No local account nobody/);
      const user = await runWren(["report", "resolve", filed.spam, "--by", "alice"], env);
      assert.equal(user.code, 1);
      assert.match(user.stderr, /alice is not a moderator or an admin/);
      const limit = await runWren(["report", "list", "--limit", "0"], env);
      assert.equal(limit.code, 2);
    });
  });
}

scenario("server running (admin socket)", false);
scenario("server stopped (direct storage)", true);
