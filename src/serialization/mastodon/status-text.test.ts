import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import type { CustomFilter } from "../../domain/filter.ts";
import { makeAccount, makeStatus } from "../../storage/contract/fixtures.ts";
import { makePoll } from "../../storage/contract/fixtures-features.ts";
import { makeMedia } from "../../storage/contract/media.ts";
import type { AccountView } from "../../views/account-view.ts";
import type { StatusView, StatusViewerFlags } from "../../views/status-view.ts";
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

// A timeline page written as bytes from kept encoded parts (statusesBytes) must be byte for byte
// the page's text encoded, and JSON.stringify of serializeStatus: for every kind of status a page
// holds, for different viewers of the same statuses, on the first rendering (nothing kept) and the
// next (kept bytes), and after what a write changes (counters, an edit, a renamed author).

/** A status of its own id, with text outside ASCII (kept bytes are UTF-8, not one per unit). */
function view(id: string, fields: Partial<StatusView> = {}): StatusView {
  return statusView({
    status: makeStatus({
      id,
      accountId: alice.id,
      text: `post ${id} 🐦 «naïve»`,
      contentHtml: `<p>post ${id} 🐦 «naïve» &amp; "quoted"</p>`,
      tags: ["wren"],
    }),
    mentions: [],
    emojis: [],
    ...fields,
  });
}

const pageFilter: CustomFilter = {
  id: "7001",
  accountId: bob.id,
  title: "spoilers — ネタバレ",
  context: ["home", "public"],
  action: "warn",
  expiresAt: null,
  keywords: [{ id: "7002", keyword: "post", wholeWord: true }],
  statuses: [],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

/** A page of every kind of status, as one viewer (flags null: anonymous) sees it. */
function page(flags: StatusViewerFlags | null): StatusView[] {
  const plain = view("2001", { viewer: flags });
  const original = view("2002", {
    viewer: flags,
    media: [
      makeMedia({ id: "3001", accountId: alice.id, statusId: "2002", description: "a wren 🐦" }),
    ],
  });
  const boost = view("2003", {
    status: makeStatus({ id: "2003", accountId: bob.id, reblogOfId: "2002" }),
    account: accountView({ account: bob }),
    reblog: original,
    application: null,
    repliesCount: 0,
    reblogsCount: 0,
    favouritesCount: 0,
    viewer: flags,
  });
  const poll = makePoll({ id: "4001", statusId: "2004", accountId: alice.id });
  const polled = view("2004", {
    status: makeStatus({ id: "2004", accountId: alice.id, pollId: "4001", text: "vote?" }),
    viewer: flags,
    poll: {
      poll,
      expired: false,
      viewer: flags ? { voted: true, ownVotes: [1] } : null,
      emojis: [],
    },
  });
  const quoted = view("2005", { viewer: flags });
  const quoting = view("2006", {
    viewer: flags,
    quote: { state: "accepted", quoted, quotedStatusId: "2005", shallow: false },
    quoteApproval: { automatic: ["followers"], manual: ["public"], currentUser: "denied" },
  });
  const shallow = view("2007", {
    viewer: flags,
    quote: { state: "accepted", quoted: null, quotedStatusId: "2005", shallow: true },
  });
  const hidden = view("2008", {
    viewer: flags,
    quote: { state: "deleted", quoted: null, quotedStatusId: null, shallow: false },
  });
  const edited = view("2009", {
    status: makeStatus({
      id: "2009",
      accountId: alice.id,
      contentHtml: "<p>edited</p>",
      editedAt: "2026-11-21T00:00:00.000Z",
    }),
    viewer: flags,
  });
  const filtered = view("2010", {
    viewer: flags,
    filtered: flags ? [{ filter: pageFilter, keywordMatches: ["post"], statusMatches: null }] : [],
  });
  return [plain, boost, polled, quoting, shallow, hidden, edited, filtered, original];
}

function assertSameBytes(renderer: StatusTextRenderer, views: readonly StatusView[]): void {
  const bytes = renderer.statusesBytes(views);
  assert.deepEqual(bytes, Buffer.from(renderer.statuses(views)));
  assert.deepEqual(bytes, Buffer.from(JSON.stringify(views.map((v) => serializeStatus(v, urls)))));
}

describe("StatusTextRenderer.statusesBytes", () => {
  const none = { favourited: false, reblogged: false, bookmarked: false, muted: false };
  const viewers: (StatusViewerFlags | null)[] = [
    null,
    { ...none, pinned: undefined },
    { favourited: true, reblogged: true, bookmarked: true, muted: true, pinned: true },
    { ...none, muted: true, pinned: false },
  ];

  it("writes the page's text encoded, for every kind of status and viewer, kept or not", () => {
    const renderer = new StatusTextRenderer(urls);
    for (let round = 0; round < 2; round++) {
      for (const flags of viewers) assertSameBytes(renderer, page(flags));
    }
    assertSameBytes(renderer, []);
  });

  it("answers each page in memory of its own, of exactly its size", () => {
    // Kept answers hold these bytes and are weighed by the memory behind them; pages are put
    // together in memory every page shares, so a page must not answer a view of it.
    const renderer = new StatusTextRenderer(urls);
    const first = renderer.statusesBytes(page(viewers[1] ?? null));
    const copy = Buffer.from(first);
    const second = renderer.statusesBytes(page(viewers[2] ?? null).slice(0, 3));
    assert.equal(first.buffer.byteLength, first.byteLength);
    assert.equal(second.buffer.byteLength, second.byteLength);
    assert.notEqual(first.buffer, second.buffer);
    assert.deepEqual(first, copy);
    // Past the scratch buffer's first size (it grows), and past its largest (a buffer of its own).
    for (const width of [40_000, 70_000]) {
      const wide = page(null).map((v, i) => ({
        ...v,
        status: { ...v.status, spoilerText: "ü".repeat(width + i) },
      }));
      const large = renderer.statusesBytes(wide);
      assert.equal(large.buffer.byteLength, large.byteLength);
      assert.deepEqual(large, Buffer.from(renderer.statuses(wide)));
    }
    assert.deepEqual(first, copy);
  });

  it("writes new counters, an edit and a renamed author at once", () => {
    const renderer = new StatusTextRenderer(urls);
    const [first] = page(null);
    assert.ok(first);
    assertSameBytes(renderer, [first]);
    assertSameBytes(renderer, [{ ...first, favouritesCount: 40, reblogsCount: 7 }]);
    const edited = { ...first, status: { ...first.status, contentHtml: "<p>changed ✓</p>" } };
    assertSameBytes(renderer, [edited]);
    const renamed = {
      ...edited,
      account: accountView({
        account: { ...alice, displayName: "Alice Renamed" },
        followersCount: 6,
      }),
    };
    assertSameBytes(renderer, [renamed]);
    assert.match(renderer.statusesBytes([renamed]).toString(), /Alice Renamed/);
  });
});
