// `wren export` / `wren import`: an instance with accounts, posts, a poll, follows, favourites,
// a report, a scheduled status, a list, a filter, a private note, a user domain block, a
// notification policy with an accepted sender and a held mention, a featured account, a
// dismissed suggestion, a Web Push subscription, a token and its actor keys moves from json-file to json-file and to
// PostgreSQL and back without a byte changing in the export, and the moved instance still
// serves the same token and posts.

import assert from "node:assert/strict";
import { createECDH, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { addRule } from "../../src/services/instance/rules.ts";
import { setTerms } from "../../src/services/instance/terms.ts";
import { subscribeToPush } from "../../src/services/push/subscriptions.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../src/storage/postgres/testing/temp-database.ts";
import { createUsers } from "../helpers/accounts.ts";
import { startTestServer } from "../helpers/server.ts";
import { runWren } from "./run-wren.ts";

const json = { "content-type": "application/json" };

describe("wren export and wren import", () => {
  let work: string;
  let sourceDir: string;
  let token: string;
  let statusId: string;
  let scheduledId: string;
  let bobToken: string;
  let collectionId: string;
  let pushTokenId: string;
  let database: TempDatabase;

  before(async () => {
    work = await mkdtemp(join(tmpdir(), "wren-transfer-"));
    sourceDir = join(work, "source");
    const server = await startTestServer({ WREN_STORAGE: "json-file" }, { dataDir: sourceDir });
    try {
      const [alice, bob, carol, dave] = await createUsers(server, "alice", "bob", "carol", "dave");
      token = alice.token;
      const posted = await server.request("/api/v1/statuses", {
        method: "POST",
        token: alice.token,
        headers: json,
        body: JSON.stringify({
          status: "Moving house #wren",
          poll: { options: ["a", "b"], expires_in: 3600 },
        }),
      });
      statusId = ((await posted.json()) as { id: string }).id;
      await server.request(`/api/v1/accounts/${alice.account.id}/follow`, {
        method: "POST",
        token: bob.token,
      });
      await server.request(`/api/v1/statuses/${statusId}/favourite`, {
        method: "POST",
        token: bob.token,
      });
      // An accepted quote of it: the quoting status carries the quote, and a quotes record lists it.
      const quoted = await server.request("/api/v1/statuses", {
        method: "POST",
        token: bob.token,
        headers: json,
        body: JSON.stringify({ status: "Good luck", quoted_status_id: statusId }),
      });
      assert.equal(quoted.status, 200);
      const reported = await server.request("/api/v1/reports", {
        method: "POST",
        token: bob.token,
        headers: json,
        body: JSON.stringify({ account_id: alice.account.id, status_ids: [statusId] }),
      });
      assert.equal(reported.status, 200);
      // A status waiting for its time (and its publishing job).
      const scheduled = await server.request("/api/v1/statuses", {
        method: "POST",
        token: alice.token,
        headers: json,
        body: JSON.stringify({
          status: "Later, after the move",
          scheduled_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
        }),
      });
      assert.equal(scheduled.status, 200);
      scheduledId = ((await scheduled.json()) as { id: string }).id;
      const list = await server.request("/api/v1/lists", {
        method: "POST",
        token: bob.token,
        headers: json,
        body: JSON.stringify({ title: "Neighbours", exclusive: true }),
      });
      const listId = ((await list.json()) as { id: string }).id;
      await server.request(`/api/v1/lists/${listId}/accounts`, {
        method: "POST",
        token: bob.token,
        headers: json,
        body: JSON.stringify({ account_ids: [alice.account.id] }),
      });
      bobToken = bob.token;
      // A collection featuring alice (who must be discoverable for it).
      await server.request("/api/v1/accounts/update_credentials", {
        method: "PATCH",
        token: alice.token,
        headers: json,
        body: JSON.stringify({ discoverable: true }),
      });
      const collection = await server.request("/api/v1/collections", {
        method: "POST",
        token: bob.token,
        headers: json,
        body: JSON.stringify({ name: "Good people", account_ids: [alice.account.id] }),
      });
      assert.equal(collection.status, 200);
      collectionId = ((await collection.json()) as { collection: { id: string } }).collection.id;
      const filtered = await server.request("/api/v2/filters", {
        method: "POST",
        token: bob.token,
        headers: json,
        body: JSON.stringify({
          title: "Polls",
          context: ["home"],
          keywords_attributes: [{ keyword: "poll" }],
        }),
      });
      assert.equal(filtered.status, 200);
      // A private note and a user domain block, each its own record kind.
      const noted = await server.request(`/api/v1/accounts/${alice.account.id}/note`, {
        method: "POST",
        token: bob.token,
        headers: json,
        body: JSON.stringify({ comment: "met while moving" }),
      });
      assert.equal(noted.status, 200);
      const blocked = await server.request("/api/v1/domain_blocks", {
        method: "POST",
        token: bob.token,
        headers: json,
        body: JSON.stringify({ domain: "spam.example" }),
      });
      assert.equal(blocked.status, 200);
      // The operator's rules and documents (kept in the key–value store).
      await addRule(server.wren.ctx, { text: "Be kind", hint: "Always" });
      await setTerms(server.wren.ctx, {
        text: "Be good.",
        format: "text",
        effectiveDate: "2025-01-01",
      });
      // A notification policy, an accepted sender (a permission) and a held private mention.
      const policy = await server.request("/api/v2/notifications/policy", {
        method: "PATCH",
        token: alice.token,
        headers: json,
        body: JSON.stringify({ for_new_accounts: "filter" }),
      });
      assert.equal(policy.status, 200);
      for (const sender of [carol, dave]) {
        await server.request("/api/v1/statuses", {
          method: "POST",
          token: sender.token,
          headers: json,
          body: JSON.stringify({ status: "@alice hello", visibility: "direct" }),
        });
      }
      const pending = await server.request("/api/v1/notifications/requests", { token });
      const requests = (await pending.json()) as { id: string; account: { id: string } }[];
      const fromCarol = requests.find((r) => r.account.id === carol.account.id);
      const accepted = await server.request(
        `/api/v1/notifications/requests/${fromCarol?.id}/accept`,
        { method: "POST", token },
      );
      assert.equal(accepted.status, 200);
      // A featured account and a dismissed suggestion, each its own record kind too.
      const endorsed = await server.request(`/api/v1/accounts/${alice.account.id}/endorse`, {
        method: "POST",
        token: bob.token,
      });
      assert.equal(endorsed.status, 200);
      const dismissed = await server.request(`/api/v1/suggestions/${bob.account.id}`, {
        method: "DELETE",
        token: alice.token,
      });
      assert.equal(dismissed.status, 200);
      // A Web Push subscription of alice's token (it also makes the VAPID pair, kept in kv).
      const [aliceToken] = await server.wren.ctx.storage.tokens.listByAccount(alice.account.id);
      assert.ok(aliceToken);
      pushTokenId = aliceToken.id;
      const subscriber = createECDH("prime256v1");
      subscriber.generateKeys();
      await subscribeToPush(
        server.wren.ctx,
        { token: { ...aliceToken, accountId: alice.account.id }, secret: alice.token },
        {
          endpoint: "https://push.example/alice",
          p256dh: subscriber.getPublicKey("base64url"),
          auth: randomBytes(16).toString("base64url"),
          standard: true,
          alerts: { mention: true },
          policy: "all",
        },
      );
      // The actor document makes the key pair (kept in the key–value store).
      await server.request("/users/alice", { headers: { accept: "application/activity+json" } });
    } finally {
      await server.close();
    }
    database = await createTempDatabase();
  });
  after(async () => {
    await database?.drop();
    await rm(work, { recursive: true, force: true });
  });

  const exportFrom = async (env: Record<string, string>, file: string) => {
    const result = await runWren(["export", file], env, 60_000);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Exported \d+ records/);
    return readFile(file, "utf8");
  };
  const importInto = async (env: Record<string, string>, file: string) => {
    const result = await runWren(["import", file], env, 60_000);
    assert.equal(result.code, 0, result.stderr);
    return result;
  };

  it("moves json-file to json-file unchanged, and the copy serves the same token and post", async () => {
    const first = await exportFrom({ WREN_DATA_DIR: sourceDir }, join(work, "a.jsonl"));
    const kinds = new Set(
      first
        .split("\n")
        .slice(1, -1)
        .map((l) => JSON.parse(l).kind),
    );
    for (const kind of [
      "accounts",
      "users",
      "tokens",
      "statuses",
      "polls",
      "follows",
      "favourites",
      "reports",
      "scheduledStatuses",
      "lists",
      "listMembers",
      "collections",
      "filters",
      "accountNotes",
      "accountDomainBlocks",
      "notificationPermissions",
      "notifications",
      "endorsements",
      "suggestionDismissals",
      "pushSubscriptions",
      "quotes",
      "kv",
    ]) {
      assert.ok(kinds.has(kind), `the export holds ${kind}`);
    }
    const copyDir = join(work, "copy");
    await importInto({ WREN_DATA_DIR: copyDir }, join(work, "a.jsonl"));
    const second = await exportFrom({ WREN_DATA_DIR: copyDir }, join(work, "b.jsonl"));
    assert.equal(second, first);

    const copy = await startTestServer({ WREN_STORAGE: "json-file" }, { dataDir: copyDir });
    try {
      const res = await copy.request(`/api/v1/statuses/${statusId}`, { token });
      assert.equal(res.status, 200);
      const status = (await res.json()) as {
        favourites_count: number;
        quotes_count: number;
        poll: unknown;
      };
      assert.equal(status.favourites_count, 1);
      assert.equal(status.quotes_count, 1);
      assert.ok(status.poll);
      const waiting = await copy.request(`/api/v1/scheduled_statuses/${scheduledId}`, { token });
      assert.equal(waiting.status, 200);
      const lists = await copy.request("/api/v1/lists", { token: bobToken });
      const [list] = (await lists.json()) as { id: string; title: string; exclusive: boolean }[];
      assert.deepEqual([list?.title, list?.exclusive], ["Neighbours", true]);
      const featured = await copy.request(`/api/v1/collections/${collectionId}`);
      const { collection, accounts } = (await featured.json()) as {
        collection: { name: string };
        accounts: { username: string }[];
      };
      assert.equal(collection.name, "Good people");
      assert.deepEqual(
        accounts.map((a) => a.username),
        ["bob", "alice"],
      );
      const rules = await copy.request("/api/v1/instance/rules");
      assert.deepEqual(await rules.json(), [{ id: "1", text: "Be kind", hint: "Always" }]);
      const terms = await copy.request("/api/v1/instance/terms_of_service/2025-01-01");
      assert.equal(((await terms.json()) as { content: string }).content, "<p>Be good.</p>");
      const members = await copy.request(`/api/v1/lists/${list?.id}/accounts`, {
        token: bobToken,
      });
      assert.deepEqual(
        ((await members.json()) as { username: string }[]).map((a) => a.username),
        ["alice"],
      );
      const pushed = await copy.wren.ctx.storage.pushSubscriptions.get(pushTokenId);
      assert.equal(pushed?.endpoint, "https://push.example/alice");
      const policy = await copy.request("/api/v2/notifications/policy", { token });
      assert.deepEqual(
        ((await policy.json()) as { for_new_accounts: string; summary: unknown }).summary,
        { pending_requests_count: 1, pending_notifications_count: 1 },
      );
      const mentions = await copy.request("/api/v1/notifications?types[]=mention", { token });
      assert.deepEqual(
        ((await mentions.json()) as { account: { username: string } }[]).map(
          (n) => n.account.username,
        ),
        ["carol"],
        "the accepted sender's mention is shown, the held one is not",
      );
    } finally {
      await copy.close();
    }
  });

  it("moves json-file to PostgreSQL and back without a byte changing", async () => {
    const first = await exportFrom({ WREN_DATA_DIR: sourceDir }, join(work, "c.jsonl"));
    const pg = { WREN_STORAGE: "postgres", WREN_DATABASE_URL: database.url };
    await importInto(pg, join(work, "c.jsonl"));
    const fromPostgres = await exportFrom(pg, join(work, "d.jsonl"));
    assert.equal(fromPostgres, first);
  });

  it("refuses a storage that already holds accounts, and a file that is not an export", async () => {
    const again = await runWren(["import", join(work, "a.jsonl")], { WREN_DATA_DIR: sourceDir });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already holds accounts/);

    await writeFile(join(work, "bad.jsonl"), '{"hello":1}\n');
    const bad = await runWren(["import", join(work, "bad.jsonl")], {
      WREN_DATA_DIR: join(work, "empty"),
    });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /not an export/);
  });
});
