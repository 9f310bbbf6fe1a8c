// The home timeline's filters (Mastodon's FeedManager#filter_from_home?): boosts of a follow
// with reblogs off, blocked and muted accounts (as authors, boosted authors or mentions; an
// expired mute no longer counts), replies to accounts the viewer does not follow, follows
// limited to some languages, and boosts of authors who block the viewer. The same shut-out
// accounts disappear from the public and hashtag timelines of that viewer.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  assertNewestFirst,
  follow,
  getList,
  ids,
  MANY_REQUESTS,
  post,
  postStatus,
} from "./helpers.ts";

const newestFirst = (list: readonly string[]) =>
  [...list].sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : -1));

describe("home timeline filters", () => {
  let server: TestServer;
  const u = {} as Record<
    "hana" | "ann" | "ben" | "cal" | "dee" | "eve" | "yan" | "zed" | "xia" | "wes",
    TestUser
  >;
  /** Ids expected in hana's home. */
  const kept: string[] = [];
  /** Ids that must not be there, with why. */
  const dropped = new Map<string, string>();
  const publicOf = {} as Record<string, string>;

  const say = async (who: keyof typeof u, body: Record<string, unknown>) =>
    (await postStatus(server, u[who].token, { visibility: "public", ...body })).id;
  const boost = async (who: keyof typeof u, id: string) =>
    ((await post(server, u[who].token, `/api/v1/statuses/${id}/reblog`)) as { id: string }).id;

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    for (const name of ["hana", "ann", "ben", "cal", "dee", "eve", "yan", "zed", "xia", "wes"]) {
      u[name as keyof typeof u] = await createUserWithToken(server, name);
    }
    await follow(server, u.hana.token, u.ann.account, { reblogs: false });
    await follow(server, u.hana.token, u.ben.account, { languages: ["en"] });
    for (const name of ["cal", "dee", "eve"] as const) {
      await follow(server, u.hana.token, u[name].account);
    }
    await post(server, u.hana.token, `/api/v1/accounts/${u.zed.account.id}/block`);
    await post(server, u.hana.token, `/api/v1/accounts/${u.xia.account.id}/mute`);
    await post(server, u.hana.token, `/api/v1/accounts/${u.eve.account.id}/mute`, {
      duration: 3600,
    });
    await post(server, u.wes.token, `/api/v1/accounts/${u.hana.account.id}/block`);
    // A timed mute that has run out (written directly: the test clock does not move).
    const ctx = server.wren.ctx;
    await ctx.storage.mutes.put({
      id: ctx.ids.next(),
      accountId: u.hana.account.id,
      targetId: u.dee.account.id,
      createdAt: new Date(Date.now() - 7200_000).toISOString(),
      hideNotifications: true,
      expiresAt: new Date(Date.now() - 3600_000).toISOString(),
    });

    for (const name of ["yan", "zed", "xia", "wes", "ann"] as const) {
      publicOf[name] = await say(name, { status: `${name} says hi #filters` });
    }

    kept.push(await say("hana", { status: "my own post" }));
    kept.push(await say("hana", { status: "@yan my own reply", in_reply_to_id: publicOf.yan }));
    kept.push(publicOf.ann as string);
    dropped.set(await boost("ann", publicOf.yan as string), "boost by a follow with reblogs off");
    kept.push(await boost("cal", publicOf.yan as string));
    dropped.set(await boost("cal", publicOf.zed as string), "boost of a blocked account");
    dropped.set(await boost("cal", publicOf.xia as string), "boost of a muted account");
    dropped.set(await boost("cal", publicOf.wes as string), "boost of an author blocking me");
    dropped.set(await say("cal", { status: "hey @zed" }), "mentions a blocked account");
    dropped.set(await say("cal", { status: "hey @xia" }), "mentions a muted account");
    kept.push(await say("ben", { status: "in English", language: "en" }));
    dropped.set(await say("ben", { status: "auf Deutsch", language: "de" }), "language");
    kept.push(await boost("ben", publicOf.yan as string));
    kept.push(await say("dee", { status: "my mute ran out" }));
    dropped.set(await say("eve", { status: "muted for an hour" }), "muted author");
    dropped.set(
      await say("cal", { status: "@yan a reply to a stranger", in_reply_to_id: publicOf.yan }),
      "reply to someone I do not follow",
    );
    kept.push(
      await say("cal", { status: "@ann a reply to a follow", in_reply_to_id: publicOf.ann }),
    );
    const calRoot = await say("cal", { status: "a thread" });
    kept.push(calRoot);
    kept.push(await say("cal", { status: "thread, continued", in_reply_to_id: calRoot }));
    kept.push(
      await say("cal", { status: "@hana a reply to me", in_reply_to_id: kept[0] as string }),
    );
  });

  after(() => server.close());

  it("keeps exactly what Mastodon's home feed keeps", async () => {
    const page = await getList(server, "/api/v1/timelines/home?limit=40", u.hana.token);
    const got = ids(page);
    for (const [id, why] of dropped) assert.ok(!got.includes(id), `shown despite: ${why}`);
    assertNewestFirst(got, "home");
    assert.deepEqual(got, newestFirst(kept));
  });

  it("fills a small page past the filtered statuses", async () => {
    const want = newestFirst(kept);
    const first = await getList(server, "/api/v1/timelines/home?limit=3", u.hana.token);
    assert.deepEqual(ids(first), want.slice(0, 3));
    const second = await getList(server, first.next as string, u.hana.token);
    assert.deepEqual(ids(second), want.slice(3, 6));
  });

  it("shows the muted account again once the mute is lifted", async () => {
    const muted = [...dropped].find(([, why]) => why === "muted author")?.[0] as string;
    await post(server, u.hana.token, `/api/v1/accounts/${u.eve.account.id}/unmute`);
    const page = await getList(server, "/api/v1/timelines/home?limit=40", u.hana.token);
    assert.ok(ids(page).includes(muted));
    await post(server, u.hana.token, `/api/v1/accounts/${u.eve.account.id}/mute`);
  });

  it("leaves shut-out accounts out of hana's public and hashtag timelines only", async () => {
    const hidden = [publicOf.zed, publicOf.xia, publicOf.wes];
    for (const path of ["/api/v1/timelines/public?limit=40", "/api/v1/timelines/tag/filters"]) {
      const mine = ids(await getList(server, path, u.hana.token));
      for (const id of hidden) assert.ok(!mine.includes(id as string), `${path} shows ${id}`);
      assert.ok(mine.includes(publicOf.yan as string));
      const anyone = ids(await getList(server, path));
      for (const id of hidden) assert.ok(anyone.includes(id as string), `${path} hides ${id}`);
    }
  });
});
