// The instance's documents and public figures over HTTP: rules the operator manages (kept ids,
// WREN_RULES as the start, reports citing them), the extended description, privacy policy and
// versioned terms of service, the weekly activity counted from the records, translation and
// posting languages, and the public list of blocked domains under each WREN_SHOW_DOMAIN_BLOCKS
// value.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { runAdminOperation } from "../../src/admin/operations.ts";
import type { Clock } from "../../src/domain/clock.ts";
import { idFromTime } from "../../src/domain/ids.ts";
import { blockDomain } from "../../src/services/domain-blocks/domain-blocks.ts";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord, statusRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the schemas
type Json = any;

const DAY = 24 * 60 * 60 * 1000;
const WEEK = 7 * DAY;
/** A Wednesday afternoon; week 0 starts at its midnight. */
const NOW = Date.parse("2026-03-11T15:00:00.000Z");
const WEEK_ZERO = Date.parse("2026-03-11T00:00:00.000Z");
const fixedClock: Clock = { now: () => new Date(NOW) };

async function call(server: TestServer, path: string, token?: string) {
  const res = await server.request(path, token ? { token } : {});
  const body: Json = await res.json();
  assertMatchesResponse("GET", path, res.status, body);
  return { status: res.status, body };
}

async function ok(server: TestServer, path: string, token?: string) {
  const { status, body } = await call(server, path, token);
  assert.equal(status, 200, `${path}: ${JSON.stringify(body)}`);
  return body;
}

async function notFound(server: TestServer, path: string, token?: string) {
  const { status, body } = await call(server, path, token);
  assert.equal(status, 404, `${path}: ${JSON.stringify(body)}`);
  assert.equal(typeof body.error, "string");
}

describe("instance documents", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const admin = (name: string, args: unknown) =>
    runAdminOperation(server.wren.ctx, name, args) as Promise<Json>;

  before(async () => {
    server = await startTestServer(
      {
        WREN_RULES: "Be kind\nNo spam",
        WREN_SHOW_DOMAIN_BLOCKS: "users",
        WREN_CONTACT_EMAIL: "admin@wren.example",
      },
      { clock: fixedClock },
    );
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  it("serves WREN_RULES until the operator changes them, then the stored rules with kept ids", async () => {
    assert.deepEqual(await ok(server, "/api/v1/instance/rules"), [
      { id: "1", text: "Be kind", hint: "" },
      { id: "2", text: "No spam", hint: "" },
    ]);
    const added = await admin("instance.rules.add", { text: " No bots ", hint: "Unless flagged" });
    assert.deepEqual(added, { id: "3", text: "No bots", hint: "Unless flagged" });
    const removed = await admin("instance.rules.remove", { id: "1" });
    assert.equal(removed.text, "Be kind");
    const expected = [
      { id: "2", text: "No spam", hint: "" },
      { id: "3", text: "No bots", hint: "Unless flagged" },
    ];
    assert.deepEqual(await ok(server, "/api/v1/instance/rules"), expected);
    assert.deepEqual((await ok(server, "/api/v2/instance")).rules, expected);
    // A removed rule's id is not given again.
    assert.equal((await admin("instance.rules.add", { text: "Be nice" })).id, "4");
    await admin("instance.rules.remove", { id: "4" });

    // Reports cite the rules in force by their ids.
    const report = (ruleId: string) =>
      server.request("/api/v1/reports", {
        method: "POST",
        token: alice.token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account_id: bob.account.id, rule_ids: [ruleId] }),
      });
    const stale = await report("1");
    assert.equal(stale.status, 422);
    assert.match(((await stale.json()) as Json).error, /valid rules/);
    const cited = await report("3");
    assert.equal(cited.status, 200);
    assert.deepEqual(((await cited.json()) as Json).rule_ids, ["3"]);
  });

  it("refuses blank or oversized rules and unknown ids", async () => {
    await assert.rejects(admin("instance.rules.add", { text: "  " }), { status: 422 });
    await assert.rejects(admin("instance.rules.add", { text: "x".repeat(301) }), {
      status: 422,
    });
    await assert.rejects(admin("instance.rules.remove", { id: "99" }), { status: 404 });
    await assert.rejects(admin("instance.rules.add", {}), { status: 400 });
  });

  it("serves the extended description, empty until set, as HTML", async () => {
    assert.deepEqual(await ok(server, "/api/v1/instance/extended_description"), {
      updated_at: null,
      content: "",
    });
    await admin("instance.document.set", {
      kind: "extended-description",
      text: "Birds & friends.\n\nSee https://wren.example",
      format: "text",
    });
    const text = await ok(server, "/api/v1/instance/extended_description");
    assert.equal(text.updated_at, new Date(NOW).toISOString());
    assert.match(
      text.content,
      /^<p>Birds &amp; friends\.<\/p><p>See <a href="https:\/\/wren\.example"/,
    );
    await admin("instance.document.set", {
      kind: "extended-description",
      text: "<h2>About</h2><p>Hi</p>\n",
      format: "html",
    });
    assert.equal(
      (await ok(server, "/api/v1/instance/extended_description")).content,
      "<h2>About</h2><p>Hi</p>",
    );
    await assert.rejects(
      admin("instance.document.set", { kind: "extended-description", text: " ", format: "text" }),
      { status: 422 },
    );
  });

  it("answers 404 for the privacy policy until one is published", async () => {
    await notFound(server, "/api/v1/instance/privacy_policy");
    await admin("instance.document.set", {
      kind: "privacy-policy",
      text: "<p>We keep little.</p>",
      format: "html",
    });
    assert.deepEqual(await ok(server, "/api/v1/instance/privacy_policy"), {
      updated_at: new Date(NOW).toISOString(),
      content: "<p>We keep little.</p>",
    });
    assert.deepEqual(await admin("instance.document.clear", { kind: "privacy-policy" }), {
      removed: true,
    });
    await notFound(server, "/api/v1/instance/privacy_policy");
  });

  it("serves the terms of service in force, each version by date, and what follows it", async () => {
    await notFound(server, "/api/v1/instance/terms_of_service");
    // Only a version still to come: it is the one shown, not yet effective.
    await admin("instance.terms.set", {
      text: "Later",
      format: "text",
      effectiveDate: "2026-06-01",
    });
    assert.deepEqual(await ok(server, "/api/v1/instance/terms_of_service"), {
      effective_date: "2026-06-01",
      effective: false,
      content: "<p>Later</p>",
      succeeded_by: null,
    });
    await admin("instance.terms.set", {
      text: "First",
      format: "text",
      effectiveDate: "2025-01-01",
    });
    await admin("instance.terms.set", { text: "Now", format: "text", effectiveDate: "2026-03-11" });
    assert.deepEqual(await ok(server, "/api/v1/instance/terms_of_service"), {
      effective_date: "2026-03-11",
      effective: true,
      content: "<p>Now</p>",
      succeeded_by: "2026-06-01",
    });
    const first = await ok(server, "/api/v1/instance/terms_of_service/2025-01-01");
    assert.equal(first.content, "<p>First</p>");
    assert.equal(first.succeeded_by, "2026-03-11");
    assert.equal(first.effective, true);
    await notFound(server, "/api/v1/instance/terms_of_service/2025-01-02");
    await notFound(server, "/api/v1/instance/terms_of_service/2025-02-30");
    await notFound(server, "/api/v1/instance/terms_of_service/latest");

    await assert.rejects(
      admin("instance.terms.set", { text: "x", format: "text", effectiveDate: "2026-13-01" }),
      { status: 422 },
    );
    assert.deepEqual(
      (await admin("instance.terms.list", {})).map((v: Json) => v.effectiveDate),
      ["2025-01-01", "2026-03-11", "2026-06-01"],
    );
  });

  it("lists the languages apps offer for a post, each named, anonymously as to an app", async () => {
    const languages: Json[] = await ok(server, "/api/v1/instance/languages");
    const byCode = new Map(languages.map((l) => [l.code, l.name]));
    assert.equal(byCode.size, languages.length, "each code once");
    assert.equal(byCode.get("en"), "English");
    assert.equal(byCode.get("ja"), "Japanese");
    assert.equal(byCode.get("nb"), "Norwegian Bokmål");
    assert.ok(languages.length >= 180, `the ISO 639-1 set, not ${languages.length}`);
    assert.deepEqual(await ok(server, "/api/v1/instance/languages", alice.token), languages);
  });

  it("has no translation languages", async () => {
    assert.deepEqual(await ok(server, "/api/v1/instance/translation_languages"), {});
  });

  it("shows the blocked domains to signed-in users only under WREN_SHOW_DOMAIN_BLOCKS=users", async () => {
    await blockDomain(server.wren.ctx, "spam.example");
    await blockDomain(server.wren.ctx, "Bad.Example");
    await notFound(server, "/api/v1/instance/domain_blocks");
    await notFound(server, "/api/v1/instance/domain_blocks", "not-a-token");
    await notFound(server, "/api/v1/instance/domain_blocks", (await createAppToken(server)).token);
    const sha = (d: string) => createHash("sha256").update(d).digest("hex");
    assert.deepEqual(await ok(server, "/api/v1/instance/domain_blocks", alice.token), [
      { domain: "bad.example", digest: sha("bad.example"), severity: "suspend" },
      { domain: "spam.example", digest: sha("spam.example"), severity: "suspend" },
    ]);
  });

  it("leaves blocked servers and their subdomains out of the peers", async () => {
    // Runs after the domain block test: spam.example and bad.example are blocked.
    const { storage } = server.wren.ctx;
    for (const [name, domain] of [
      ["a", "eu.spam.example"],
      ["b", "bad.example"],
      ["c", "fine.example"],
    ] as const) {
      await storage.accounts.put(remoteAccountRecord(server, name, domain));
    }
    assert.deepEqual(await ok(server, "/api/v1/instance/peers"), ["fine.example"]);
  });
});

describe("instance activity", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { clock: fixedClock });
  });
  after(() => server.close());

  it("counts local statuses and sign-ups per week for twelve weeks, newest first", async () => {
    const { account, user } = await createUserWithToken(server, "poster");
    const { storage } = server.wren.ctx;
    // An older user, signed up in week 3.
    const old = await createUserWithToken(server, "old");
    await storage.users.put({
      ...old.user,
      createdAt: new Date(WEEK_ZERO - 3 * WEEK + DAY).toISOString(),
    });
    assert.equal(user.createdAt, new Date(NOW).toISOString());

    const post = async (at: number, overrides = {}) => {
      await storage.statuses.put(
        statusRecord(server, account, {
          id: idFromTime(new Date(at)),
          createdAt: new Date(at).toISOString(),
          ...overrides,
        }),
      );
    };
    await post(NOW - 60_000); // week 0
    await post(WEEK_ZERO - 1); // week 1: the last millisecond before today
    await post(WEEK_ZERO - WEEK); // week 1: its first millisecond
    await post(WEEK_ZERO - WEEK - 1); // week 2
    await post(WEEK_ZERO - 11 * WEEK); // week 11, the oldest shown
    await post(WEEK_ZERO - 11 * WEEK - 1); // too old
    // Boosts and remote statuses are not counted.
    const original = statusRecord(server, account, { id: idFromTime(new Date(NOW - 7200_000)) });
    await post(NOW - 3600_000, { reblogOfId: original.id, text: "", contentHtml: "" });
    const remote = remoteAccountRecord(server, "far", "far.example");
    await storage.accounts.put(remote);
    await storage.statuses.put(
      statusRecord(server, remote, { id: idFromTime(new Date(NOW - 5000)), local: false }),
    );

    const weeks = await ok(server, "/api/v1/instance/activity");
    assert.equal(weeks.length, 12);
    weeks.forEach((week: Json, i: number) => {
      assert.equal(week.week, String((WEEK_ZERO - i * WEEK) / 1000), `week ${i}`);
      assert.equal(week.logins, "0");
    });
    assert.deepEqual(
      weeks.map((w: Json) => w.statuses),
      ["1", "2", "1", "0", "0", "0", "0", "0", "0", "0", "0", "1"],
    );
    assert.deepEqual(
      weeks.map((w: Json) => w.registrations),
      ["1", "0", "0", "1", "0", "0", "0", "0", "0", "0", "0", "0"],
    );
    // The weeks are kept an hour: a post made since shows only after that.
    await post(NOW - 30_000);
    assert.equal((await ok(server, "/api/v1/instance/activity"))[0].statuses, "1");
  });
});

describe("instance domain blocks, other settings", () => {
  for (const [setting, shown] of [
    [undefined, false],
    ["all", true],
  ] as const) {
    it(`${setting ?? "unset (disabled)"}: ${shown ? "anyone sees the list" : "404 for everyone"}`, async () => {
      const server = await startTestServer(setting ? { WREN_SHOW_DOMAIN_BLOCKS: setting } : {});
      try {
        await blockDomain(server.wren.ctx, "spam.example");
        const { token } = await createUserWithToken(server, "reader");
        if (shown) {
          const list = await ok(server, "/api/v1/instance/domain_blocks");
          assert.deepEqual(
            list.map((b: Json) => b.domain),
            ["spam.example"],
          );
          assert.deepEqual(await ok(server, "/api/v1/instance/domain_blocks", token), list);
        } else {
          await notFound(server, "/api/v1/instance/domain_blocks");
          await notFound(server, "/api/v1/instance/domain_blocks", token);
        }
      } finally {
        await server.close();
      }
    });
  }
});
