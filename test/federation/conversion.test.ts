// Inbound conversion end to end: documents as Mastodon, GoToSocial, Misskey and Pleroma publish
// them are parsed by Fedify, converted and stored through the federation layer
// (remote-actors.ts, remote-objects.ts) on a real test server, and read back from storage and
// from the Mastodon API as a client would see them.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Actor, Object as APObject, Create, isActor } from "@fedify/vocab";
import type { Account } from "../../src/domain/account.ts";
import { createWrenFederation } from "../../src/federation/federation.ts";
import { type InboxCtx, senderOf } from "../../src/federation/inbox/sender.ts";
import { ensureRemoteAccount, type FederationContext } from "../../src/federation/remote-actors.ts";
import { deleteObject, ingestObject, updateObject } from "../../src/federation/remote-objects.ts";
import { actorToDraft } from "../../src/serialization/activitypub/from-actor.ts";
import { upsertRemoteAccount } from "../../src/services/remote/upsert-remote-account.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import * as fixtures from "./conversion-fixtures.ts";
import type { Json } from "./helpers.ts";

const loaders = {
  documentLoader: fixtures.testDocumentLoader,
  contextLoader: fixtures.testDocumentLoader,
};

describe("inbound conversion of real-world documents", () => {
  let server: TestServer;
  let fctx: FederationContext;
  let alice: TestUser;
  let gargron: Account;
  let tobi: Account;
  let syuilo: Account;
  let lain: Account;

  /** A fixture with our test host in place of `wren.example`, parsed by Fedify. */
  async function parse(json: Json, changes: Json = {}): Promise<APObject> {
    const text = JSON.stringify({ ...json, ...changes }).replaceAll(
      "https://wren.example",
      server.url,
    );
    return APObject.fromJsonLd(JSON.parse(text), loaders);
  }

  async function actor(json: Json, changes: Json = {}): Promise<Actor> {
    const object = await parse(json, changes);
    assert.ok(isActor(object));
    return object;
  }

  async function api(path: string, token?: string): Promise<{ status: number; body: Json }> {
    const res = await server.request(path, token ? { token } : {});
    return { status: res.status, body: await res.json() };
  }

  before(async () => {
    server = await startTestServer();
    const ctx = server.wren.ctx;
    fctx = createWrenFederation(ctx).federation.createContext(new URL(server.url), ctx);
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  describe("actors", () => {
    it("stores a Mastodon Person as an account with remote images, fields and emojis", async () => {
      const stored = await ensureRemoteAccount(fctx, await actor(fixtures.mastodonPerson), {
        refresh: true,
      });
      assert.ok(stored);
      gargron = stored;
      assert.equal(stored.username, "Gargron");
      assert.equal(stored.domain, "mastodon.example");
      assert.equal(stored.uri, "https://mastodon.example/users/Gargron");
      assert.equal(stored.url, "https://mastodon.example/@Gargron");
      assert.equal(stored.note, "");
      assert.ok(!stored.noteHtml.includes("script"));
      assert.match(stored.noteHtml, /rel="nofollow noopener" target="_blank"/);
      assert.deepEqual(
        stored.fields.map((f) => [f.name, f.valueHtml]),
        [
          [
            "Patreon",
            '<a href="https://www.patreon.com/mastodon" target="_blank" rel="nofollow noopener"><span class="invisible">https://www.</span><span>patreon.com/mastodon</span></a>',
          ],
          ["Homepage", "zeonfederated.com"],
        ],
      );
      assert.equal(stored.avatar?.kind, "remote");
      assert.equal(stored.header?.kind, "remote");
      assert.equal(stored.discoverable, true);
      assert.equal(stored.indexable, true);
      assert.equal(stored.createdAt, "2016-03-16T00:00:00.000Z");
      assert.equal(stored.remote?.inbox, "https://mastodon.example/users/Gargron/inbox");
      assert.equal(stored.remote?.sharedInbox, "https://mastodon.example/inbox");
      assert.equal(
        stored.remote?.featured,
        "https://mastodon.example/users/Gargron/collections/featured",
      );
      assert.deepEqual(stored.remote?.alsoKnownAs, ["https://old.example/users/gargron"]);
      assert.equal(stored.remote?.fetchedAt, stored.updatedAt);
      const emoji = await server.wren.ctx.storage.customEmojis.findByShortcode(
        "verified",
        "mastodon.example",
      );
      assert.equal(
        emoji?.remoteUrl,
        "https://files.mastodon.example/custom_emojis/images/verified.png",
      );
      assert.equal(emoji?.visibleInPicker, false);
    });

    it("serves the remote account to clients as Mastodon does", async () => {
      const { status, body } = await api(`/api/v1/accounts/${gargron.id}`);
      assert.equal(status, 200);
      assert.equal(body.acct, "Gargron@mastodon.example");
      assert.equal(body.username, "Gargron");
      assert.equal(body.url, "https://mastodon.example/@Gargron");
      assert.equal(body.uri, "https://mastodon.example/users/Gargron");
      assert.equal(
        body.avatar,
        "https://files.mastodon.example/accounts/avatars/000/000/001/original/d96d39a0abb45b92.jpg",
      );
      assert.equal(body.avatar_static, body.avatar);
      assert.equal(body.noindex, undefined);
      assert.deepEqual(body.emojis, [
        {
          shortcode: "verified",
          url: "https://files.mastodon.example/custom_emojis/images/verified.png",
          static_url: "https://files.mastodon.example/custom_emojis/images/verified.png",
          visible_in_picker: false,
          category: null,
        },
      ]);
      assert.equal(body.fields[1].value, "zeonfederated.com");
      // Nothing published yet: our own counts.
      assert.equal(body.statuses_count, 0);
    });

    it("shows the counters the remote server publishes, and keeps the id on refresh", async () => {
      const draft = await actorToDraft(await actor(fixtures.mastodonPerson, { name: "Eugen R." }));
      assert.ok(draft);
      const refreshed = await upsertRemoteAccount(server.wren.ctx, {
        ...draft,
        remote: {
          ...draft.remote,
          statusesCount: 72000,
          followersCount: 300000,
          followingCount: 12,
        },
      });
      assert.equal(refreshed.id, gargron.id);
      assert.equal(refreshed.createdAt, gargron.createdAt);
      const { body } = await api(`/api/v1/accounts/${gargron.id}`);
      assert.equal(body.display_name, "Eugen R.");
      assert.equal(body.statuses_count, 72000);
      assert.equal(body.followers_count, 300000);
      assert.equal(body.following_count, 12);
    });

    it("keeps our moderators' marks (limited, sensitive) when the profile is refreshed", async () => {
      const ctx = server.wren.ctx;
      const draft = await actorToDraft(
        await actor(fixtures.pleromaPerson, {
          id: "https://pleroma.example/users/marked",
          preferredUsername: "marked",
        }),
      );
      assert.ok(draft);
      const stored = await upsertRemoteAccount(ctx, draft);
      const at = "2026-01-02T03:04:05.000Z";
      await ctx.storage.accounts.put({ ...stored, silencedAt: at, sensitizedAt: at });
      const refreshed = await upsertRemoteAccount(ctx, { ...draft, displayName: "New name" });
      assert.equal(refreshed.displayName, "New name");
      assert.equal(refreshed.silencedAt, at);
      assert.equal(refreshed.sensitizedAt, at);
      assert.equal((await ctx.storage.accounts.get(stored.id))?.silencedAt, at);
    });

    it("never revives an account its server deleted", async () => {
      const ctx = server.wren.ctx;
      const draft = await actorToDraft(
        await actor(fixtures.pleromaPerson, {
          id: "https://pleroma.example/users/gone",
          preferredUsername: "gone",
        }),
      );
      assert.ok(draft);
      const gone = await upsertRemoteAccount(ctx, draft);
      await ctx.storage.accounts.put({ ...gone, suspended: true });
      const again = await upsertRemoteAccount(ctx, { ...draft, displayName: "back again" });
      assert.equal(again.suspended, true);
      assert.equal(again.displayName, gone.displayName);
      assert.equal(
        await ensureRemoteAccount(
          fctx,
          await actor(fixtures.pleromaPerson, {
            id: "https://pleroma.example/users/gone",
            preferredUsername: "gone",
          }),
          { refresh: true },
        ),
        undefined,
      );
    });

    it("reads a GoToSocial bot: Service, locked, plain fields, relative links as text", async () => {
      const stored = await ensureRemoteAccount(fctx, await actor(fixtures.gotosocialPerson), {
        refresh: true,
      });
      assert.ok(stored);
      tobi = stored;
      assert.equal(stored.bot, true);
      assert.equal(stored.locked, true);
      assert.equal(stored.group, false);
      assert.equal(stored.remote?.sharedInbox, null);
      assert.equal(
        stored.noteHtml,
        "<p>I post about sloths and </p><p><strong>headings</strong></p><p></p>",
      );
      assert.deepEqual(
        stored.fields.map((f) => [f.name, f.valueHtml]),
        [
          ["should you follow me?", "maybe!"],
          ["age", "120"],
        ],
      );
    });

    it("reads a Misskey Person with its custom emoji in the display name", async () => {
      const stored = await ensureRemoteAccount(fctx, await actor(fixtures.misskeyPerson), {
        refresh: true,
      });
      assert.ok(stored);
      syuilo = stored;
      assert.equal(stored.username, "syuilo");
      assert.equal(stored.url, "https://misskey.example/@syuilo");
      assert.equal(stored.header, null);
      const { body } = await api(`/api/v1/accounts/${stored.id}`);
      assert.equal(body.display_name, "しゅいろ :blobcat:");
      assert.deepEqual(
        body.emojis.map((e: Json) => [e.shortcode, e.url]),
        [["blobcat", "https://misskey.example/files/blobcat.webp"]],
      );
    });

    it("refuses actors that cannot be accounts, and our own actors", async () => {
      const ctx = server.wren.ctx;
      assert.equal(
        await ensureRemoteAccount(
          fctx,
          await actor(fixtures.pleromaPerson, {
            id: "https://pleroma.example/users/nameless",
            preferredUsername: "has space",
          }),
        ),
        undefined,
      );
      assert.equal(await ensureRemoteAccount(fctx, `${server.url}/users/alice`), undefined);
      assert.equal(await ensureRemoteAccount(fctx, "not a handle or url"), undefined);
      assert.equal(
        await ctx.storage.accounts.findByUri("https://pleroma.example/users/nameless"),
        undefined,
      );
      const stored = await ensureRemoteAccount(fctx, await actor(fixtures.pleromaPerson), {
        refresh: true,
      });
      assert.ok(stored);
      lain = stored;
    });

    it("reads a known inbox sender's record once, not again to see that it is fresh", async () => {
      const { accounts } = server.wren.ctx.storage;
      const read = accounts.findByUri;
      let reads = 0;
      accounts.findByUri = (uri) => {
        reads++;
        return read.call(accounts, uri);
      };
      try {
        const create = new Create({
          id: new URL(`${gargron.uri}/statuses/1/activity`),
          actor: new URL(gargron.uri),
        });
        const sender = await senderOf(fctx as unknown as InboxCtx, create);
        assert.equal(sender?.id, gargron.id);
        assert.equal(reads, 1);
      } finally {
        accounts.findByUri = read;
      }
    });
  });

  describe("posts", () => {
    let noteId: string;
    let questionId: string;

    it("stores a Mastodon Note: sanitised content, CW, language, tags, emojis, media", async () => {
      const ctx = server.wren.ctx;
      const status = await ingestObject(fctx, await parse(fixtures.mastodonNote), {
        actor: gargron,
      });
      assert.ok(status);
      noteId = status.id;
      assert.equal(status.accountId, gargron.id);
      assert.equal(status.local, false);
      assert.equal(status.text, "");
      assert.equal(status.uri, "https://mastodon.example/users/Gargron/statuses/111");
      assert.equal(status.url, "https://mastodon.example/@Gargron/111");
      assert.equal(status.spoilerText, "Spoilers ahead");
      assert.equal(status.sensitive, true);
      assert.equal(status.language, "en");
      assert.equal(status.visibility, "public");
      assert.equal(status.createdAt, "2024-05-01T12:00:00.000Z");
      assert.deepEqual(status.tags, ["fediverse"]);
      assert.deepEqual(status.mentionIds, [alice.account.id]);
      assert.equal(status.conversationId, status.id);
      for (const bad of ["<img", "<iframe", "onerror"])
        assert.ok(!status.contentHtml.includes(bad));
      const media = [...(await ctx.storage.media.getMany(status.mediaIds)).values()];
      assert.equal(media.length, 2);
      assert.ok(media.every((m) => m.statusId === status.id && m.state === "ready"));
    });

    it("serves the remote status with its media where they live", async () => {
      const { status, body } = await api(`/api/v1/statuses/${noteId}`);
      assert.equal(status, 200);
      assert.equal(body.uri, "https://mastodon.example/users/Gargron/statuses/111");
      assert.equal(body.url, "https://mastodon.example/@Gargron/111");
      assert.equal(body.account.acct, "Gargron@mastodon.example");
      assert.equal(body.spoiler_text, "Spoilers ahead");
      assert.equal(body.language, "en");
      assert.deepEqual(
        body.tags.map((t: Json) => t.name),
        ["fediverse"],
      );
      assert.deepEqual(
        body.emojis.map((e: Json) => e.shortcode),
        ["verified"],
      );
      assert.deepEqual(
        body.mentions.map((m: Json) => m.acct),
        ["alice"],
      );
      const [image, video] = body.media_attachments;
      assert.equal(image.type, "image");
      assert.equal(
        image.url,
        "https://files.mastodon.example/media_attachments/files/1/original/photo.jpg",
      );
      assert.equal(image.remote_url, image.url);
      assert.equal(image.preview_url, image.url);
      assert.equal(image.description, "A wren on a branch");
      assert.equal(image.blurhash, "UBL_:rOpGG-oBUNG,qRj2so|=eE1w^n4S5NH");
      assert.deepEqual(image.meta.focus, { x: 0.5, y: -0.25 });
      assert.deepEqual(image.meta.original, {
        width: 1200,
        height: 800,
        size: "1200x800",
        aspect: 1.5,
      });
      assert.equal(video.type, "video");
      assert.equal(
        video.url,
        "https://files.mastodon.example/media_attachments/files/2/original/clip.mp4",
      );
      assert.equal(video.description, null);
    });

    it("notifies the mentioned local account, once, however often the post arrives", async () => {
      const again = await ingestObject(fctx, await parse(fixtures.mastodonNote), {
        actor: gargron,
      });
      assert.equal(again?.id, noteId);
      const { body } = await api("/api/v1/notifications", alice.token);
      const mentions = body.filter((n: Json) => n.type === "mention");
      assert.equal(mentions.length, 1);
      assert.equal(mentions[0].status.id, noteId);
      assert.equal(mentions[0].account.acct, "Gargron@mastodon.example");
    });

    it("turns a Mastodon Question into a poll with its counts (followers-only)", async () => {
      const ctx = server.wren.ctx;
      const status = await ingestObject(fctx, await parse(fixtures.mastodonQuestion), {
        actor: gargron,
      });
      assert.ok(status?.pollId);
      questionId = status.id;
      assert.equal(status.visibility, "private");
      assert.equal(status.language, "de");
      const poll = await ctx.storage.polls.get(status.pollId);
      assert.deepEqual(poll?.options, [
        { title: "Tabs", votesCount: 3 },
        { title: "Spaces", votesCount: 4 },
      ]);
      assert.equal(poll?.multiple, false);
      assert.equal(poll?.votesCount, 7);
      assert.equal(poll?.votersCount, 7);
      assert.equal(poll?.expiresAt, "2099-05-03T12:00:00.000Z");
      assert.equal(poll?.accountId, gargron.id);
    });

    it("updates a poll's counts without making an edit", async () => {
      const ctx = server.wren.ctx;
      const updated = await updateObject(
        fctx,
        await parse(fixtures.mastodonQuestion, {
          votersCount: 9,
          oneOf: [
            { type: "Note", name: "Tabs", replies: { type: "Collection", totalItems: 5 } },
            { type: "Note", name: "Spaces", replies: { type: "Collection", totalItems: 4 } },
          ],
        }),
        gargron,
      );
      assert.equal(updated?.id, questionId);
      const poll = await ctx.storage.polls.get(updated?.pollId ?? "");
      assert.deepEqual(
        poll?.options.map((o) => o.votesCount),
        [5, 4],
      );
      assert.equal(poll?.votersCount, 9);
      assert.equal(updated?.editedAt, null);
      assert.deepEqual(await ctx.storage.statusEdits.listByStatus(questionId), []);
    });

    it("joins a GoToSocial reply to the thread of the post it answers", async () => {
      const status = await ingestObject(fctx, await parse(fixtures.gotosocialNote), {
        actor: tobi,
      });
      assert.ok(status);
      assert.equal(status.inReplyToId, noteId);
      assert.equal(status.inReplyToAccountId, gargron.id);
      assert.equal(status.conversationId, noteId);
      assert.equal(status.visibility, "public");
      assert.equal(status.url, "https://gts.example/@tobi/statuses/01HZ");
      assert.equal(
        status.contentHtml,
        '<p>unlisted post with a <a href="https://example.org" rel="nofollow noopener" target="_blank">link</a></p>',
      );
      const { body } = await api(`/api/v1/statuses/${noteId}/context`);
      assert.deepEqual(
        body.descendants.map((s: Json) => s.id),
        [status.id],
      );
    });

    it("reads a Misskey note: HTML content (not MFM), quote kept once, followers-only", async () => {
      const status = await ingestObject(fctx, await parse(fixtures.misskeyNote), { actor: syuilo });
      assert.ok(status);
      assert.equal(status.visibility, "private");
      assert.equal(status.sensitive, true);
      assert.deepEqual(status.tags, ["misskey"]);
      assert.ok(!status.contentHtml.includes("$["), "the MFM source is not shown");
      assert.ok(status.contentHtml.includes("<i>big</i>"));
      assert.equal(
        status.contentHtml.split("https://mastodon.example/users/Gargron/statuses/111").length,
        3,
      );
      assert.ok(status.contentHtml.includes("<br><br>RE: "));
    });

    it("adds the quote link of a quote whose content does not show it", async () => {
      const status = await ingestObject(
        fctx,
        await parse(fixtures.misskeyNote, {
          id: "https://misskey.example/notes/9quote",
          content: "<p>look</p>",
        }),
        { actor: syuilo },
      );
      assert.equal(
        status?.contentHtml,
        '<p>look</p><p class="quote-inline">RE: <a href="https://mastodon.example/users/Gargron/statuses/111" rel="nofollow noopener" target="_blank">https://mastodon.example/users/Gargron/statuses/111</a></p>',
      );
    });

    it("reads a Pleroma direct message: mention, no style, no language", async () => {
      const status = await ingestObject(fctx, await parse(fixtures.pleromaNote), { actor: lain });
      assert.ok(status);
      assert.equal(status.visibility, "direct");
      assert.equal(status.language, null);
      assert.equal(status.sensitive, false);
      assert.deepEqual(status.mentionIds, [alice.account.id]);
      assert.ok(!status.contentHtml.includes("display:none"));
      assert.match(
        status.contentHtml,
        /^hey <span class="h-card"><a class="u-url mention" href="[^"]+\/users\/alice"/,
      );
    });

    it("shows an Article as Mastodon does: title, summary and a link", async () => {
      const status = await ingestObject(fctx, await parse(fixtures.pleromaArticle), {
        actor: lain,
      });
      assert.ok(status);
      assert.equal(
        status.contentHtml,
        '<p><strong>On &lt;Federation&gt;</strong></p>\n\nA long read\n\n<p><a href="https://pleroma.example/notice/article-1" rel="nofollow noopener" target="_blank">https://pleroma.example/notice/article-1</a></p>',
      );
      assert.equal(status.spoilerText, "");
      assert.equal(status.url, "https://pleroma.example/notice/article-1");
    });

    it("refuses an object whose id is not on its author's origin, and one not by the sender", async () => {
      const ctx = server.wren.ctx;
      const forged = await parse(fixtures.mastodonNote, {
        id: "https://evil.example/statuses/1",
      });
      assert.equal(await ingestObject(fctx, forged), undefined);
      assert.equal(await ingestObject(fctx, forged, { actor: gargron }), undefined);
      const byOther = await parse(fixtures.gotosocialNote, {
        id: "https://gts.example/users/tobi/statuses/02",
      });
      assert.equal(await ingestObject(fctx, byOther, { actor: gargron }), undefined);
      assert.equal(
        await ctx.storage.statuses.findByUri("https://evil.example/statuses/1"),
        undefined,
      );
      assert.equal(
        await ctx.storage.statuses.findByUri("https://gts.example/users/tobi/statuses/02"),
        undefined,
      );
    });

    it("drops or caps hostile parts of a post instead of failing", async () => {
      const ctx = server.wren.ctx;
      const options = Array.from({ length: 200 }, (_, i) => ({
        type: "Note",
        name: `option ${i}`,
        replies: { type: "Collection", totalItems: i === 0 ? -5 : 1 },
      }));
      const status = await ingestObject(
        fctx,
        await parse(fixtures.mastodonQuestion, {
          id: "https://mastodon.example/users/Gargron/statuses/hostile",
          content: `<p>${"<b>".repeat(500)}${"x".repeat(300_000)}`,
          contentMap: undefined,
          attachment: [
            { type: "Document", mediaType: "image/png", url: "javascript:alert(1)" },
            { type: "Document", mediaType: "text/html", url: "https://mastodon.example/page" },
          ],
          tag: [
            { type: "Mention", href: "javascript:alert(1)", name: "@x" },
            { type: "Hashtag", name: "#<script>", href: "https://mastodon.example/tags/x" },
            {
              type: "Emoji",
              name: ":bad code:",
              icon: { type: "Image", url: "https://e.example/x.png" },
            },
          ],
          oneOf: options,
        }),
        { actor: gargron },
      );
      assert.ok(status);
      assert.ok(status.contentHtml.length <= 210_000);
      assert.ok(status.contentHtml.endsWith("</b></p>"));
      assert.deepEqual(status.mentionIds, []);
      assert.deepEqual(status.tags, []);
      const media = [...(await ctx.storage.media.getMany(status.mediaIds)).values()];
      assert.deepEqual(
        media.map((m) => [m.type, m.remoteUrl]),
        [["unknown", "https://mastodon.example/page"]],
      );
      const poll = await ctx.storage.polls.get(status.pollId ?? "");
      assert.equal(poll?.options.length, 64);
      assert.equal(poll?.options[0]?.votesCount, 0);
      assert.equal(
        await ctx.storage.customEmojis.findByShortcode("bad code", "mastodon.example"),
        undefined,
      );
    });

    it("applies an edit with its history, only from the author, and ignores stale versions", async () => {
      const ctx = server.wren.ctx;
      const edit = await parse(fixtures.mastodonNote, {
        content: "<p>Edited <script>x</script>text</p>",
        contentMap: undefined,
        updated: "2024-05-01T13:00:00Z",
        attachment: [],
      });
      assert.equal(await updateObject(fctx, edit, tobi), undefined);
      const edited = await updateObject(fctx, edit, gargron);
      assert.equal(edited?.id, noteId);
      assert.equal(edited?.contentHtml, "<p>Edited text</p>");
      assert.equal(edited?.editedAt, "2024-05-01T13:00:00.000Z");
      assert.deepEqual(edited?.mediaIds, []);
      const history = await ctx.storage.statusEdits.listByStatus(noteId);
      assert.equal(history.length, 1);
      assert.match(history[0]?.contentHtml ?? "", /^<p>Hello/);
      assert.equal(history[0]?.mediaIds.length, 2);

      const stale = await parse(fixtures.mastodonNote, {
        content: "<p>older</p>",
        updated: "2024-05-01T12:30:00Z",
      });
      const after = await updateObject(fctx, stale, gargron);
      assert.equal(after?.contentHtml, "<p>Edited text</p>");
      const { body } = await api(`/api/v1/statuses/${noteId}/history`);
      assert.equal(body.length, 2);
    });

    it("deletes a post only on its author's word", async () => {
      const ctx = server.wren.ctx;
      await deleteObject(
        fctx,
        new URL("https://mastodon.example/users/Gargron/statuses/111"),
        tobi,
      );
      assert.equal((await ctx.storage.statuses.get(noteId))?.deleted, false);
      await deleteObject(
        fctx,
        new URL("https://mastodon.example/users/Gargron/statuses/111"),
        gargron,
      );
      assert.equal((await ctx.storage.statuses.get(noteId))?.deleted, true);
      assert.equal((await api(`/api/v1/statuses/${noteId}`)).status, 404);
      // A replay of the Create does not bring it back.
      assert.equal(
        await ingestObject(fctx, await parse(fixtures.mastodonNote), { actor: gargron }),
        undefined,
      );
    });
  });
});
