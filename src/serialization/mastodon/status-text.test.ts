import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import type { CustomFilter } from "../../domain/filter.ts";
import { makeAccount, makeStatus } from "../../storage/contract/fixtures.ts";
import type { AccountView } from "../../views/account-view.ts";
import type { StatusView } from "../../views/status-view.ts";
import type { UrlContext } from "./account.ts";
import { serializeStatus } from "./status.ts";
import { StatusTextRenderer } from "./status-text.ts";

const urls: UrlContext = {
  publicUrl: "https://social.example",
  fileUrl: (key) => `https://files.example/${key}`,
};

const alice = makeAccount({ id: "1001", username: "alice" });
const bob = makeAccount({ id: "1002", username: "bob" });

const emoji: CustomEmoji = {
  id: "9001",
  shortcode: "wren",
  domain: null,
  imageKey: "emojis/wren.png",
  staticKey: "emojis/wren-static.png",
  category: null,
  visibleInPicker: true,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

function accountView(fields: Partial<AccountView> = {}): AccountView {
  return {
    account: alice,
    statusesCount: 2,
    followersCount: 5,
    followingCount: 1,
    lastStatusAt: "2026-11-20T10:00:00.000Z",
    role: "user",
    emojis: [],
    ...fields,
  };
}

function statusView(fields: Partial<StatusView> = {}): StatusView {
  return {
    status: makeStatus({
      id: "2001",
      accountId: alice.id,
      text: "hello :wren: @bob",
      contentHtml: "<p>hello :wren: @bob</p>",
      tags: ["wren"],
      mentionIds: [bob.id],
    }),
    account: accountView(),
    reblog: null,
    application: { name: "Elk", website: "https://elk.zone" },
    mentions: [bob],
    repliesCount: 1,
    reblogsCount: 2,
    favouritesCount: 3,
    viewer: null,
    poll: null,
    media: [],
    emojis: [emoji],
    card: null,
    filtered: [],
    quote: null,
    quoteApproval: { automatic: ["public"], manual: [], currentUser: "unknown" },
    quotesCount: 0,
    ...fields,
  };
}

const parsed = (text: string): unknown => JSON.parse(text);

describe("StatusTextRenderer", () => {
  it("writes exactly what serializeStatus builds, anonymous and with viewer flags", () => {
    const renderer = new StatusTextRenderer(urls);
    const anonymous = statusView();
    assert.deepEqual(parsed(renderer.status(anonymous)), serializeStatus(anonymous, urls));
    const seen = statusView({
      viewer: { favourited: true, reblogged: false, bookmarked: true, muted: false, pinned: true },
    });
    assert.deepEqual(parsed(renderer.status(seen)), serializeStatus(seen, urls));
  });

  it("writes the very bytes of JSON.stringify(serializeStatus), key order included", () => {
    const renderer = new StatusTextRenderer(urls);
    const flags = { favourited: false, reblogged: true, bookmarked: false, muted: true };
    const filter: CustomFilter = {
      id: "7001",
      accountId: bob.id,
      title: "spoilers",
      context: ["home", "public"],
      action: "warn",
      expiresAt: null,
      keywords: [],
      statuses: [],
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    const shapes = [
      statusView(),
      statusView({ viewer: { ...flags, pinned: false } }),
      statusView({
        viewer: { ...flags, pinned: undefined },
        filtered: [{ filter, keywordMatches: ["hello"], statusMatches: null }],
        quoteApproval: { automatic: ["followers"], manual: ["public"], currentUser: "denied" },
      }),
    ];
    for (const view of shapes) {
      assert.equal(renderer.status(view), JSON.stringify(serializeStatus(view, urls)));
    }
  });

  it("nests a reblog and writes arrays in order", () => {
    const renderer = new StatusTextRenderer(urls);
    const original = statusView();
    const wrapper = statusView({
      status: makeStatus({ id: "2002", accountId: bob.id, reblogOfId: "2001" }),
      account: accountView({ account: bob }),
      reblog: original,
      application: null,
      mentions: [],
      emojis: [],
      repliesCount: 0,
      reblogsCount: 0,
      favouritesCount: 0,
    });
    const json = parsed(renderer.statuses([wrapper, original])) as { id: string }[];
    assert.deepEqual(json, [serializeStatus(wrapper, urls), serializeStatus(original, urls)]);
    assert.deepEqual(parsed(renderer.statuses([])), []);
  });

  it("reuses nothing stale: new counters, a replaced record or new emojis show at once", () => {
    const renderer = new StatusTextRenderer(urls);
    const first = statusView();
    renderer.status(first);

    const counted = statusView({
      status: first.status,
      favouritesCount: 40,
      account: accountView({ followersCount: 6, statusesCount: 3 }),
    });
    const countedJson = parsed(renderer.status(counted)) as Record<string, unknown>;
    assert.equal(countedJson.favourites_count, 40);
    assert.deepEqual(countedJson, serializeStatus(counted, urls));

    // An edit stores a new (frozen) record: the cached content must not survive it.
    const edited = statusView({
      status: {
        ...first.status,
        contentHtml: "<p>edited</p>",
        editedAt: "2026-11-21T00:00:00.000Z",
      },
    });
    const editedJson = parsed(renderer.status(edited)) as Record<string, unknown>;
    assert.equal(editedJson.content, "<p>edited</p>");
    assert.equal(editedJson.edited_at, "2026-11-21T00:00:00.000Z");

    // Same record, but the emoji was replaced (new image) and the app renamed.
    const newEmoji = { ...emoji, imageKey: "emojis/wren-2.png" };
    const reemojied = statusView({
      status: edited.status,
      emojis: [newEmoji],
      application: { name: "Phanpy", website: null },
    });
    assert.deepEqual(parsed(renderer.status(reemojied)), serializeStatus(reemojied, urls));

    // An account renamed in place (a new record) shows its new name in every status.
    const renamed = statusView({
      status: edited.status,
      account: accountView({ account: { ...alice, displayName: "Alice Renamed" } }),
    });
    const renamedJson = parsed(renderer.status(renamed)) as { account: { display_name: string } };
    assert.equal(renamedJson.account.display_name, "Alice Renamed");

    // The same record gains its preview card once the job has fetched it.
    const card = {
      url: "https://example.com/page",
      title: "A page",
      description: "",
      type: "link" as const,
      authorName: "",
      authorUrl: "",
      providerName: "",
      providerUrl: "",
      imageKey: null,
      width: 0,
      height: 0,
      blurhash: null,
      imageDescription: "",
      fetchedAt: "2026-11-22T00:00:00.000Z",
    };
    const carded = statusView({ status: edited.status, card });
    const cardedJson = parsed(renderer.status(carded)) as { card: { title: string } | null };
    assert.equal(cardedJson.card?.title, "A page");
    const refreshed = statusView({
      status: edited.status,
      card: { ...card, title: "Renamed page", fetchedAt: "2026-12-22T00:00:00.000Z" },
    });
    assert.deepEqual(parsed(renderer.status(refreshed)), serializeStatus(refreshed, urls));
  });

  it("writes each viewer's own filter results, never another's cached ones", () => {
    const renderer = new StatusTextRenderer(urls);
    const flags = { favourited: false, reblogged: false, bookmarked: false, muted: false };
    const filter = {
      id: "77",
      accountId: bob.id,
      title: "Wrens",
      context: ["home" as const],
      action: "warn" as const,
      expiresAt: null,
      keywords: [{ id: "78", keyword: "wren", wholeWord: true }],
      statuses: [],
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    const base = statusView();
    const forBob = statusView({
      status: base.status,
      viewer: { ...flags, pinned: undefined },
      filtered: [{ filter, keywordMatches: ["wren"], statusMatches: null }],
    });
    const forCarol = statusView({ status: base.status, viewer: { ...flags, pinned: undefined } });
    const bobJson = parsed(renderer.status(forBob)) as { filtered: unknown[] };
    assert.deepEqual(bobJson, serializeStatus(forBob, urls));
    assert.deepEqual(bobJson.filtered, [
      {
        filter: {
          id: "77",
          title: "Wrens",
          context: ["home"],
          expires_at: null,
          filter_action: "warn",
        },
        keyword_matches: ["wren"],
        status_matches: null,
      },
    ]);
    const carolJson = parsed(renderer.status(forCarol)) as { filtered: unknown[] };
    assert.deepEqual(carolJson.filtered, []);
  });

  it("keys the cache on record identity (stores replace records, never change them)", () => {
    const renderer = new StatusTextRenderer(urls);
    const account = { ...alice };
    const view = statusView({ account: accountView({ account }) });
    renderer.status(view);
    // Changed in place, which no store does: the cached text still stands, proving it is used.
    account.displayName = "Changed In Place";
    const again = parsed(renderer.status(view)) as { account: { display_name: string } };
    assert.equal(again.account.display_name, alice.displayName);
  });

  it("forgets the least recently rendered beyond its limits", () => {
    const renderer = new StatusTextRenderer(urls, { statuses: 2, accounts: 2 });
    const account = { ...alice };
    const view = statusView({ account: accountView({ account }) });
    renderer.status(view);
    account.displayName = "Changed In Place";
    for (let i = 0; i < 5; i++) {
      const other = makeAccount({ id: `30${i}`, username: `other${i}` });
      renderer.status(
        statusView({
          status: makeStatus({ id: `40${i}`, accountId: other.id }),
          account: accountView({ account: other }),
        }),
      );
    }
    // The first account's memo is gone, so its (changed) record is serialized again.
    const again = parsed(renderer.status(view)) as { account: { display_name: string } };
    assert.equal(again.account.display_name, "Changed In Place");
  });
});
