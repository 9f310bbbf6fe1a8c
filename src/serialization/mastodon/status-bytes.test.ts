// A timeline page written as bytes from kept encoded parts (StatusTextRenderer.statusesBytes)
// must be byte for byte the page's text encoded, and JSON.stringify of serializeStatus: for every
// kind of status a page holds, for different viewers of the same statuses, on the first rendering
// (nothing kept) and the next (kept bytes), and after what a write changes (counters, an edit).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
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

const alice = makeAccount({ id: "1001", username: "alice", displayName: "Alice ✨ Ålund" });
const bob = makeAccount({ id: "1002", username: "bob", domain: "remote.example" });

function accountView(account = alice, fields: Partial<AccountView> = {}): AccountView {
  return {
    account,
    statusesCount: 2,
    followersCount: 5,
    followingCount: 1,
    lastStatusAt: "2026-11-20T10:00:00.000Z",
    role: "user",
    emojis: [],
    ...fields,
  };
}

function view(id: string, fields: Partial<StatusView> = {}): StatusView {
  return {
    status: makeStatus({
      id,
      accountId: alice.id,
      text: `post ${id} 🐦 «naïve»`,
      contentHtml: `<p>post ${id} 🐦 «naïve» &amp; "quoted"</p>`,
      tags: ["wren"],
    }),
    account: accountView(),
    reblog: null,
    application: { name: "Elk", website: "https://elk.zone" },
    mentions: [],
    repliesCount: 1,
    reblogsCount: 2,
    favouritesCount: 3,
    viewer: null,
    poll: null,
    media: [],
    emojis: [],
    card: null,
    filtered: [],
    quote: null,
    quoteApproval: { automatic: ["public"], manual: [], currentUser: "unknown" },
    quotesCount: 0,
    ...fields,
  };
}

const filter: CustomFilter = {
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
    account: accountView(bob),
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
    filtered: flags ? [{ filter, keywordMatches: ["post"], statusMatches: null }] : [],
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
      account: accountView({ ...alice, displayName: "Alice Renamed" }, { followersCount: 6 }),
    };
    assertSameBytes(renderer, [renamed]);
    assert.match(renderer.statusesBytes([renamed]).toString(), /Alice Renamed/);
  });
});
