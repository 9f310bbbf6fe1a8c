// The admin API's server-level blocks: domain blocks (severities, flags, the 422 of a duplicate,
// the obfuscated public listing, old entries read as suspensions), domain allows (and the
// allow-list mode), IP blocks (no_access refuses every request, sign-up blocks and approvals,
// expiry) and email blocks by domain and canonical address, enforced at sign-up through the API
// and the web page. Every method answers an admin with the scope, and refuses users, moderators
// (who lack manage_federation / manage_blocks), tokens without the scope and no token.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isDomainBlocked, rejectsReports } from "../../src/services/domain-blocks/domain-blocks.ts";
import { storeRemoteMedia } from "../../src/services/remote/remote-media.ts";
import { makeFollow } from "../../src/storage/contract/fixtures.ts";
import type { Json } from "../graph/helpers.ts";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord, statusRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type MovableClock, movableClock } from "../polls/helpers.ts";

const ADMIN = "/api/v1/admin";
const STAFF_SCOPES = ["read", "write", "admin:read", "admin:write"];

describe("the admin API's server-level blocks", () => {
  let server: TestServer;
  let clock: MovableClock;
  let admin: TestUser;
  let mod: TestUser;
  let alice: TestUser;
  /** An admin whose token holds only the reports scopes. */
  let narrow: TestUser;
  let appToken: string;

  const call = async (
    user: TestUser | string | null,
    method: string,
    path: string,
    body?: Json,
    headers: Record<string, string> = {},
  ) => {
    const res = await server.request(path, {
      method,
      ...(user === null ? {} : { token: typeof user === "string" ? user : user.token }),
      headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : null, res };
  };
  const ok = async (method: string, path: string, body?: Json, template?: string) => {
    const answer = await call(admin, method, path, body);
    assert.equal(answer.status, 200, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    if (template) assertMatchesResponse(method, template, 200, answer.body);
    return answer.body;
  };
  const fromAddress = (ip: string) => ({ "x-forwarded-for": ip });
  const signUp = (name: string, ip: string, email = `${name}@mail.example`) =>
    call(
      appToken,
      "POST",
      "/api/v1/accounts",
      {
        username: name,
        email,
        password: "a long enough password",
        agreement: true,
        locale: "en",
      },
      fromAddress(ip),
    );

  before(async () => {
    clock = movableClock(new Date().toISOString());
    server = await startTestServer(
      { WREN_REGISTRATIONS: "open", WREN_SHOW_DOMAIN_BLOCKS: "all" },
      { clock },
    );
    admin = await createUserWithToken(server, "boss", STAFF_SCOPES, { role: "admin" });
    mod = await createUserWithToken(server, "mod", STAFF_SCOPES, { role: "moderator" });
    alice = await createUserWithToken(server, "alice", STAFF_SCOPES);
    narrow = await createUserWithToken(
      server,
      "narrow",
      ["admin:read:reports", "admin:write:reports"],
      { role: "admin" },
    );
    appToken = (await createAppToken(server, ["read", "write"])).token;
  });
  after(() => server.close());

  it("creates, lists, shows, updates and lifts domain blocks", async () => {
    const BLOCKS = `${ADMIN}/domain_blocks`;
    const silenced = await ok(
      "POST",
      BLOCKS,
      { domain: "Loud.Example", private_comment: "ads" },
      BLOCKS,
    );
    assert.equal(silenced.domain, "loud.example");
    assert.equal(silenced.severity, "silence");
    assert.equal(silenced.private_comment, "ads");
    assert.equal(silenced.reject_media, false);

    const suspended = await ok("POST", BLOCKS, {
      domain: "spam.example",
      severity: "suspend",
      reject_reports: true,
    });
    const list: Json[] = await ok("GET", BLOCKS, undefined, BLOCKS);
    assert.deepEqual(
      list.map((b) => b.domain),
      ["spam.example", "loud.example"],
    );
    const page = await call(admin, "GET", `${BLOCKS}?limit=1`);
    assert.deepEqual(
      page.body.map((b: Json) => b.id),
      [suspended.id],
    );
    assert.match(page.res.headers.get("link") ?? "", /max_id=/);

    assert.deepEqual(
      await ok("GET", `${BLOCKS}/${silenced.id}`, undefined, `${BLOCKS}/{id}`),
      silenced,
    );
    const updated = await ok(
      "PUT",
      `${BLOCKS}/${silenced.id}`,
      { reject_media: true, obfuscate: true, public_comment: "Too loud" },
      `${BLOCKS}/{id}`,
    );
    assert.equal(updated.reject_media, true);
    assert.equal(updated.severity, "silence");

    // The public listing: obfuscated where asked, the digest of the real domain.
    const shown: Json[] = (await call(null, "GET", "/api/v1/instance/domain_blocks")).body;
    const loud = shown.find((b) => b.severity === "silence");
    assert.equal(loud.domain, "loud.****ple");
    assert.equal(loud.digest, updated.digest);
    assert.equal(loud.comment, "Too loud");
    assert.ok(shown.some((b) => b.domain === "spam.example" && b.severity === "suspend"));

    const removed = await call(admin, "DELETE", `${BLOCKS}/${silenced.id}`);
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, {});
    assert.equal((await call(admin, "GET", `${BLOCKS}/${silenced.id}`)).status, 404);
    assert.equal((await call(admin, "DELETE", `${BLOCKS}/${silenced.id}`)).status, 404);
    await ok("DELETE", `${BLOCKS}/${suspended.id}`);
  });

  it("refuses a block the domain or a parent already has at that severity or stricter", async () => {
    const BLOCKS = `${ADMIN}/domain_blocks`;
    const parent = await ok("POST", BLOCKS, { domain: "bad.example", severity: "suspend" });
    for (const [domain, severity] of [
      ["bad.example", "suspend"],
      ["bad.example", "silence"],
      ["sub.bad.example", "noop"],
    ]) {
      const answer = await call(admin, "POST", BLOCKS, { domain, severity });
      assert.equal(answer.status, 422, `${domain} ${severity}`);
      assert.match(answer.body.error, /stricter limits on bad\.example/);
      assert.equal(answer.body.existing_domain_block.id, parent.id);
    }
    // A weaker block of the same domain is made stricter; a subdomain may be limited more.
    const weak = await ok("POST", BLOCKS, { domain: "meh.example", severity: "noop" });
    const stricter = await ok("POST", BLOCKS, { domain: "meh.example", severity: "silence" });
    assert.equal(stricter.id, weak.id);
    assert.equal(stricter.severity, "silence");
    await ok("POST", BLOCKS, { domain: "worse.meh.example", severity: "suspend" });

    for (const body of [{}, { domain: " " }, { domain: "https://x.example/" }]) {
      assert.equal((await call(admin, "POST", BLOCKS, body)).status, 422, JSON.stringify(body));
    }
    const own = new URL(server.url).host;
    assert.equal((await call(admin, "POST", BLOCKS, { domain: own })).status, 422);
    assert.equal(
      (await call(admin, "POST", BLOCKS, { domain: "x.example", severity: "ban" })).status,
      422,
    );
  });

  it("reads a block stored before severities as a suspension, with a stable id", async () => {
    const ctx = server.wren.ctx;
    await ctx.storage.kv.set({
      key: ["wren", "domainBlock", "old.example"],
      value: { domain: "old.example", createdAt: "2025-01-02T03:04:05.000Z" },
      expiresAt: null,
    });
    const list: Json[] = await ok("GET", `${ADMIN}/domain_blocks`);
    const old = list.find((b) => b.domain === "old.example");
    assert.equal(old.severity, "suspend");
    assert.equal(old.created_at, "2025-01-02T03:04:05.000Z");
    assert.deepEqual(await ok("GET", `${ADMIN}/domain_blocks/${old.id}`), old);
    assert.equal(await isDomainBlocked(ctx, "a.old.example"), true);
    await ok("DELETE", `${ADMIN}/domain_blocks/${old.id}`);
    assert.equal(await isDomainBlocked(ctx, "a.old.example"), false);
  });

  it("keeps domain allows, which rule only in allow-list mode", async () => {
    const ALLOWS = `${ADMIN}/domain_allows`;
    const friend = await ok("POST", ALLOWS, { domain: "Friend.Example" }, ALLOWS);
    assert.equal(friend.domain, "friend.example");
    assert.deepEqual(await ok("POST", ALLOWS, { domain: "friend.example" }), friend);
    assert.deepEqual(await ok("GET", ALLOWS, undefined, ALLOWS), [friend]);
    assert.deepEqual(
      await ok("GET", `${ALLOWS}/${friend.id}`, undefined, `${ALLOWS}/{id}`),
      friend,
    );
    assert.equal((await call(admin, "POST", ALLOWS, {})).status, 422);

    const ctx = server.wren.ctx;
    const allowlist = {
      ...ctx,
      settings: { ...ctx.settings, federationMode: "allowlist" as const },
    };
    assert.equal(await isDomainBlocked(ctx, "stranger.example"), false);
    assert.equal(await isDomainBlocked(allowlist, "stranger.example"), true);
    assert.equal(await isDomainBlocked(allowlist, "social.friend.example"), false);
    assert.equal(await isDomainBlocked(allowlist, new URL(server.url).host), false);

    await ok("DELETE", `${ALLOWS}/${friend.id}`);
    assert.equal(await isDomainBlocked(allowlist, "friend.example"), true);
    assert.equal((await call(admin, "GET", `${ALLOWS}/${friend.id}`)).status, 404);
  });

  it("keeps IP blocks and enforces them: no access, no sign-up, sign-up held, expiry", async () => {
    const IPS = `${ADMIN}/ip_blocks`;
    const noAccess = await ok(
      "POST",
      IPS,
      { ip: "198.51.100.0/24", severity: "no_access", comment: "abuse", expires_in: 3600 },
      IPS,
    );
    assert.equal(noAccess.ip, "198.51.100.0/24");
    assert.ok(Date.parse(noAccess.expires_at) > Date.now());
    const refused = await call(
      null,
      "GET",
      "/api/v1/instance",
      undefined,
      fromAddress("198.51.100.7"),
    );
    assert.equal(refused.status, 403);
    assert.ok(refused.body.error);
    assert.equal(
      (await call(null, "GET", "/api/v1/instance", undefined, fromAddress("198.51.101.7"))).status,
      200,
    );
    // Past its expiry the block is ignored.
    clock.advance(3601_000);
    assert.equal(
      (await call(null, "GET", "/api/v1/instance", undefined, fromAddress("198.51.100.7"))).status,
      200,
    );

    const single = await ok("POST", IPS, { ip: "203.0.113.9", severity: "sign_up_block" });
    assert.equal(single.ip, "203.0.113.9/32");
    assert.equal(single.expires_at, null);
    assert.equal((await signUp("blocked1", "203.0.113.9")).status, 403);
    assert.equal((await signUp("fine1", "203.0.113.10")).status, 200);

    const held = await ok("POST", IPS, {
      ip: "2001:db8::/32",
      severity: "sign_up_requires_approval",
    });
    const heldSignUp = await signUp("held1", "2001:db8::5");
    assert.equal(heldSignUp.status, 200);
    const heldUser = await server.wren.ctx.storage.users.findByEmail("held1@mail.example");
    assert.equal(heldUser?.approved, false);

    const changed = await ok(
      "PUT",
      `${IPS}/${held.id}`,
      { severity: "sign_up_block", comment: "now closed" },
      `${IPS}/{id}`,
    );
    assert.equal(changed.severity, "sign_up_block");
    assert.equal(changed.comment, "now closed");
    assert.equal((await signUp("held2", "2001:db8::6")).status, 403);
    const listed: Json[] = await ok("GET", IPS, undefined, IPS);
    assert.deepEqual(
      listed.map((b) => b.id),
      [held.id, single.id, noAccess.id],
    );
    assert.deepEqual(await ok("GET", `${IPS}/${single.id}`, undefined, `${IPS}/{id}`), single);
    for (const body of [
      { ip: "not an ip", severity: "no_access" },
      { ip: "10.0.0.0/33", severity: "no_access" },
      { ip: "10.0.0.1" },
      { severity: "no_access" },
      { ip: "10.0.0.1", severity: "everything" },
    ]) {
      assert.equal((await call(admin, "POST", IPS, body)).status, 422, JSON.stringify(body));
    }
    for (const block of listed) await ok("DELETE", `${IPS}/${block.id}`);
    assert.equal((await signUp("held3", "2001:db8::7")).status, 200);
  });

  it("keeps email domain blocks and refuses or holds sign-ups from them", async () => {
    const DOMAINS = `${ADMIN}/email_domain_blocks`;
    const junk = await ok("POST", DOMAINS, { domain: "junk.example" }, DOMAINS);
    assert.equal(junk.domain, "junk.example");
    assert.equal(junk.history.length, 7);
    assert.equal((await call(admin, "POST", DOMAINS, { domain: "junk.example" })).status, 422);
    assert.equal((await call(admin, "POST", DOMAINS, {})).status, 422);

    const refused = await signUp("junky", "192.0.2.1", "junky@mx.junk.example");
    assert.equal(refused.status, 422);
    assert.equal(refused.body.details.email[0].error, "ERR_BLOCKED");
    const shown = await ok("GET", `${DOMAINS}/${junk.id}`, undefined, `${DOMAINS}/{id}`);
    assert.equal(shown.history[0].uses, "1");

    // The web sign-up page refuses it too, with the field's message.
    const open = await server.request("/auth/sign_up");
    const cookie = (open.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const csrf = /name="authenticity_token" value="([^"]+)"/.exec(await open.text())?.[1] ?? "";
    const page = await server.request("/auth/sign_up", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({
        authenticity_token: csrf,
        username: "webjunk",
        email: "webjunk@junk.example",
        password: "a long enough password",
        agreement: "1",
      }).toString(),
    });
    assert.equal(page.status, 422);
    assert.match(await page.text(), /disallowed e-mail provider/);
    assert.equal(
      await server.wren.ctx.storage.users.findByEmail("webjunk@junk.example"),
      undefined,
    );

    const slow = await ok("POST", DOMAINS, { domain: "slow.example", allow_with_approval: true });
    assert.equal(slow.allow_with_approval, true);
    assert.equal((await signUp("slowpoke", "192.0.2.1", "slowpoke@slow.example")).status, 200);
    const user = await server.wren.ctx.storage.users.findByEmail("slowpoke@slow.example");
    assert.equal(user?.approved, false);

    const list: Json[] = await ok("GET", DOMAINS, undefined, DOMAINS);
    assert.deepEqual(
      list.map((b) => b.domain),
      ["slow.example", "junk.example"],
    );
    for (const block of list) await ok("DELETE", `${DOMAINS}/${block.id}`);
    assert.equal((await signUp("junky", "192.0.2.1", "junky@mx.junk.example")).status, 200);
  });

  it("keeps canonical email blocks, tests addresses against them and refuses their sign-ups", async () => {
    const CANONICAL = `${ADMIN}/canonical_email_blocks`;
    const block = await ok("POST", CANONICAL, { email: "J.Doe+ads@Mail.Example" }, CANONICAL);
    assert.match(block.canonical_email_hash, /^[0-9a-f]{64}$/);
    const tested = await ok(
      "POST",
      `${CANONICAL}/test`,
      { email: "jdoe@mail.example" },
      `${CANONICAL}/test`,
    );
    assert.deepEqual(tested, [block]);
    assert.deepEqual(await ok("POST", `${CANONICAL}/test`, { email: "other@mail.example" }), []);
    const refused = await signUp("jdoe", "192.0.2.2", "j.d.o.e+x@mail.example");
    assert.equal(refused.status, 422);
    assert.equal(refused.body.details.email[0].error, "ERR_BLOCKED");

    const byHash = await ok("POST", CANONICAL, { canonical_email_hash: "a".repeat(64) });
    assert.equal(byHash.canonical_email_hash, "a".repeat(64));
    assert.equal(
      (await call(admin, "POST", CANONICAL, { canonical_email_hash: "xyz" })).status,
      422,
    );
    assert.equal(
      (await call(admin, "POST", CANONICAL, { email: "J.Doe@mail.example" })).status,
      422,
    );
    assert.equal((await call(admin, "POST", CANONICAL, {})).status, 422);
    assert.deepEqual(await ok("GET", CANONICAL, undefined, CANONICAL), [byHash, block]);
    assert.deepEqual(
      await ok("GET", `${CANONICAL}/${block.id}`, undefined, `${CANONICAL}/{id}`),
      block,
    );
    await ok("DELETE", `${CANONICAL}/${block.id}`);
    await ok("DELETE", `${CANONICAL}/${byHash.id}`);
    assert.equal((await signUp("jdoe", "192.0.2.2", "j.d.o.e+x@mail.example")).status, 200);
  });

  it("silence keeps a server's posts out of public timelines for non-followers; reject_media keeps its files", async () => {
    const ctx = server.wren.ctx;
    const loud = remoteAccountRecord(server, "shouty", "quiet.example", {
      uri: "https://quiet.example/users/shouty",
    });
    await ctx.storage.accounts.put(loud);
    const post = statusRecord(server, loud, { visibility: "public" });
    await ctx.storage.statuses.put(post);
    const inPublic = async (user: TestUser | null) => {
      const answer = await call(user, "GET", "/api/v1/timelines/public?limit=40");
      return answer.body.some((s: Json) => s.id === post.id);
    };
    assert.equal(await inPublic(null), true);

    const block = await ok("POST", `${ADMIN}/domain_blocks`, {
      domain: "quiet.example",
      severity: "silence",
      reject_media: true,
      reject_reports: true,
    });
    assert.equal(await inPublic(null), false);
    assert.equal(await inPublic(alice), false);
    await ctx.storage.follows.put(
      makeFollow({ id: ctx.ids.next(), accountId: alice.account.id, targetId: loud.id }),
    );
    assert.equal(await inPublic(alice), true, "a follower still sees them");
    assert.equal(await isDomainBlocked(ctx, "quiet.example"), false, "silence is no suspension");
    assert.equal(await rejectsReports(ctx, "quiet.example"), true);

    const [mediaId] = await storeRemoteMedia(ctx, {
      accountId: loud.id,
      statusId: post.id,
      drafts: [
        {
          type: "image",
          url: "https://quiet.example/files/cat.png",
          contentType: "image/png",
          description: "a cat",
          blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
          meta: null,
          focus: null,
        },
      ],
    });
    const media = await ctx.storage.media.get(mediaId as string);
    assert.equal(media?.type, "unknown");
    assert.equal(media?.remoteUrl, "https://quiet.example/files/cat.png");
    assert.equal(media?.blurhash, null);

    await ok("DELETE", `${ADMIN}/domain_blocks/${block.id}`);
    assert.equal(await inPublic(null), true);
  });

  it("refuses every method to users, moderators, tokens without the scope and no token", async () => {
    const methods: [string, string, string][] = [];
    for (const [name, put] of [
      ["domain_blocks", true],
      ["domain_allows", false],
      ["ip_blocks", true],
      ["email_domain_blocks", false],
      ["canonical_email_blocks", false],
    ] as const) {
      const base = `${ADMIN}/${name}`;
      methods.push(["GET", base, `admin:read:${name}`], ["POST", base, `admin:write:${name}`]);
      methods.push(["GET", `${base}/1`, `admin:read:${name}`]);
      if (put) methods.push(["PUT", `${base}/1`, `admin:write:${name}`]);
      methods.push(["DELETE", `${base}/1`, `admin:write:${name}`]);
    }
    methods.push([
      "POST",
      `${ADMIN}/canonical_email_blocks/test`,
      "admin:read:canonical_email_blocks",
    ]);
    const scoped = new Map<string, TestUser>();
    for (const [method, path, scope] of methods) {
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      assert.equal((await call(null, method, path, body)).status, 401, `${method} ${path}`);
      for (const who of [alice, mod, narrow]) {
        const answer = await call(who, method, path, body);
        assert.equal(answer.status, 403, `${who.account.username}: ${method} ${path}`);
      }
      // The one scope the method needs admits it (the record does not exist: 404; or 422).
      let user = scoped.get(scope);
      if (!user) {
        user = await createUserWithToken(server, `s${scoped.size}`, [scope], { role: "admin" });
        scoped.set(scope, user);
      }
      const admitted = await call(user, method, path, body);
      assert.ok([200, 404, 422].includes(admitted.status), `${scope}: ${method} ${path}`);
    }
  });
});
