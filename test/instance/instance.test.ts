import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import { IMAGE_MATRIX_LIMIT } from "../../src/media/limits.ts";
import { createUserWithToken } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord, statusRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

async function get(server: TestServer, path: string, token?: string) {
  const res = await server.request(path, token ? { token } : {});
  const body: Json = await res.json();
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(body)}`);
  assertMatchesResponse("GET", path, 200, body);
  return body;
}

describe("instance endpoints", () => {
  let server: TestServer;
  let adminId: string;
  let someone: Account;
  before(async () => {
    server = await startTestServer({
      WREN_INSTANCE_TITLE: "Wren Test",
      WREN_INSTANCE_DESCRIPTION: "Birds & <friends>",
      WREN_CONTACT_EMAIL: "admin@wren.example",
      WREN_REGISTRATIONS: "open",
      WREN_MAX_STATUS_CHARACTERS: "1000",
      WREN_MAX_MEDIA_ATTACHMENTS: "6",
      WREN_MAX_IMAGE_BYTES: String(10 * 1024 * 1024),
      WREN_RULES: "Be kind\nNo spam",
    });
    someone = (await createUserWithToken(server, "someone")).account;
    adminId = (await createUserWithToken(server, "boss", ["read"], { role: "admin" })).account.id;
    const accounts = server.wren.ctx.storage.accounts;
    await accounts.put(remoteAccountRecord(server, "a", "b.example"));
    await accounts.put(remoteAccountRecord(server, "c", "a.example"));
    await accounts.put(remoteAccountRecord(server, "d", "a.example"));
  });
  after(() => server.close());

  it("GET /api/v2/instance describes the server with the limits it enforces", async () => {
    const body = await get(server, "/api/v2/instance");
    const domain = new URL(server.url).host;
    assert.equal(body.domain, domain);
    assert.equal(body.title, "Wren Test");
    assert.equal(body.description, "Birds & <friends>");
    assert.match(body.version, /^4\.5\.0 \(compatible; Wren \d+\.\d+\.\d+\)$/);
    // Version 7 is what apps check before they offer quote posts.
    assert.deepEqual(body.api_versions, { mastodon: 7 });
    assert.equal(body.configuration.statuses.max_characters, 1000);
    assert.equal(body.configuration.statuses.max_media_attachments, 6);
    assert.equal(body.configuration.statuses.characters_reserved_per_url, 23);
    assert.equal(body.configuration.media_attachments.image_size_limit, 10 * 1024 * 1024);
    assert.equal(body.configuration.media_attachments.image_matrix_limit, IMAGE_MATRIX_LIMIT);
    for (const type of [
      "image/jpeg",
      "image/png",
      "image/gif",
      "image/webp",
      "image/avif",
      "video/mp4",
    ]) {
      assert.ok(body.configuration.media_attachments.supported_mime_types.includes(type), type);
    }
    assert.deepEqual(body.configuration.polls, {
      max_options: 4,
      max_characters_per_option: 50,
      min_expiration: 300,
      max_expiration: 2629746,
    });
    assert.equal(body.configuration.accounts.max_profile_fields, 4);
    assert.equal(body.configuration.accounts.max_display_name_length, 30);
    assert.equal(body.configuration.accounts.max_note_length, 500);
    assert.deepEqual(body.configuration.translation, { enabled: false });
    assert.equal(body.configuration.urls.streaming, server.url.replace(/^http/, "ws"));
    assert.equal(body.registrations.enabled, true);
    assert.equal(body.registrations.approval_required, false);
    assert.equal(body.contact.email, "admin@wren.example");
    assert.equal(body.contact.account.id, adminId);
    assert.deepEqual(body.rules, [
      { id: "1", text: "Be kind", hint: "" },
      { id: "2", text: "No spam", hint: "" },
    ]);
    assert.equal(body.usage.users.active_month, 0);
    assert.equal((await fetch(body.thumbnail.url)).status, 200);
  });

  it("GET /api/v1/instance gives the version 1 entity with counters", async () => {
    const body = await get(server, "/api/v1/instance");
    assert.equal(body.uri, new URL(server.url).host);
    assert.equal(body.short_description, "Birds & <friends>");
    assert.equal(body.description, "Birds &amp; &lt;friends&gt;");
    assert.equal(body.email, "admin@wren.example");
    assert.deepEqual(body.stats, { user_count: 2, status_count: 0, domain_count: 2 });
    assert.equal(body.registrations, true);
    assert.equal(body.approval_required, false);
    assert.equal(body.invites_enabled, false);
    assert.equal(body.configuration.statuses.max_characters, 1000);
    assert.equal(body.contact_account.username, "boss");
    assert.equal(body.rules.length, 2);
  });

  it("GET /api/v1/instance/peers lists the known remote domains", async () => {
    assert.deepEqual(await get(server, "/api/v1/instance/peers"), ["a.example", "b.example"]);
  });

  it("GET /api/v1/instance/rules lists the rules", async () => {
    const body = await get(server, "/api/v1/instance/rules");
    assert.deepEqual(
      body.map((r: Json) => r.text),
      ["Be kind", "No spam"],
    );
  });

  it("is public and ignores a stale token", async () => {
    await get(server, "/api/v2/instance", "stale-token");
    await get(server, "/api/v1/instance", "stale-token");
  });

  it("counts local statuses and, as active, users who posted in the last four weeks", async () => {
    const ctx = server.wren.ctx;
    const boss = await ctx.storage.accounts.get(adminId);
    assert.ok(boss);
    const old = new Date(ctx.clock.now().getTime() - 60 * 24 * 3600 * 1000).toISOString();
    await ctx.storage.statuses.put(statusRecord(server, someone, { createdAt: old }));
    await ctx.storage.statuses.put(statusRecord(server, boss));
    const v2 = await get(server, "/api/v2/instance");
    assert.equal(v2.usage.users.active_month, 1);
    const v1 = await get(server, "/api/v1/instance");
    assert.equal(v1.stats.status_count, 2);
  });
});

describe("instance endpoints with default settings", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ WREN_CONTACT_EMAIL: "ops@wren.example" });
  });
  after(() => server.close());

  it("reports closed registrations, no contact account and no rules", async () => {
    const v2 = await get(server, "/api/v2/instance");
    assert.equal(v2.registrations.enabled, false);
    assert.equal(v2.contact.account, null);
    assert.deepEqual(v2.rules, []);
    const v1 = await get(server, "/api/v1/instance");
    assert.equal(v1.registrations, false);
    assert.equal(v1.contact_account, null);
    assert.deepEqual(v1.stats, { user_count: 0, status_count: 0, domain_count: 0 });
    assert.deepEqual(await get(server, "/api/v1/instance/peers"), []);
  });

  it("reports approval mode as taking sign-ups that wait for approval", async () => {
    const approval = await startTestServer({
      WREN_REGISTRATIONS: "approval",
      WREN_CONTACT_EMAIL: "ops@wren.example",
    });
    try {
      const v2 = await get(approval, "/api/v2/instance");
      assert.equal(v2.registrations.enabled, true);
      assert.equal(v2.registrations.approval_required, true);
      assert.equal(v2.registrations.reason_required, true);
      assert.equal(v2.registrations.url, null);
      const v1 = await get(approval, "/api/v1/instance");
      assert.equal(v1.registrations, true);
      assert.equal(v1.approval_required, true);
      assert.equal(v1.invites_enabled, false);
    } finally {
      await approval.close();
    }
  });
});
