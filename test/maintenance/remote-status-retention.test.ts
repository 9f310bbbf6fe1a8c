// WREN_REMOTE_STATUS_RETENTION_DAYS on a real server (json-file and PostgreSQL), driven by a
// clock the test moves: the daily job removes remote statuses older than the period that nobody
// here interacted with, with their media files, versions, polls and notifications, and keeps,
// for each kind of interaction, the status a local account interacted with, while the same
// interaction by a remote account keeps nothing.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import type { Status } from "../../src/domain/status.ts";
import {
  ensureRemoteRetentionScheduled,
  REMOTE_RETENTION_JOB,
  runRemoteRetention,
} from "../../src/services/maintenance/remote-status-retention.ts";
import { makeEdge, makeFavourite, makeStatusEdit } from "../../src/storage/contract/fixtures.ts";
import {
  makeNotification,
  makePoll,
  makePollVote,
} from "../../src/storage/contract/fixtures-features.ts";
import { makeMedia } from "../../src/storage/contract/media.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../src/storage/postgres/testing/temp-database.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { remoteAccountRecord, statusRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { movableClock } from "../polls/helpers.ts";

const DAY = 24 * 3600_000;

for (const backend of ["json-file", "postgres"] as const) {
  describe(`remote status retention (${backend})`, () => {
    const clock = movableClock();
    let database: TempDatabase | undefined;
    let server: TestServer;
    let alice: TestUser;
    let dave: Account;
    before(async () => {
      database = backend === "postgres" ? await createTempDatabase() : undefined;
      const storage: Record<string, string> = database
        ? { WREN_STORAGE: "postgres", WREN_DATABASE_URL: database.url }
        : { WREN_STORAGE: "json-file" };
      server = await startTestServer(
        { WREN_REMOTE_STATUS_RETENTION_DAYS: "30", ...storage },
        { clock },
      );
      [alice] = await createUsers(server, "alice");
      dave = remoteAccountRecord(server, "dave", "remote.test");
      await server.wren.ctx.storage.accounts.put(dave);
    });
    after(async () => {
      await server.close();
      await database?.drop();
    });

    it("removes old remote statuses nobody here interacted with, keeping the others", async () => {
      const { ctx } = server.wren;
      const { storage } = ctx;
      const aliceId = alice.account.id;
      const put = async (account: Account, fields: Partial<Status> = {}) => {
        const status = statusRecord(server, account, fields);
        await storage.statuses.put(status);
        return status;
      };
      const remote = (fields: Partial<Status> = {}) => put(dave, fields);
      const edge = (accountId: string, targetId: string) =>
        makeEdge({ id: ctx.ids.next(), accountId, targetId });

      // Each kind of interaction: by alice (kept), and the same by the remote dave (removed).
      const favKept = await remote();
      const favGone = await remote();
      for (const [who, s] of [
        [aliceId, favKept],
        [dave.id, favGone],
      ] as const) {
        await storage.favourites.put(makeFavourite({ ...edge(who, s.id) }));
      }
      const bookmarkKept = await remote();
      const bookmarkGone = await remote();
      await storage.bookmarks.put(edge(aliceId, bookmarkKept.id));
      await storage.bookmarks.put(edge(dave.id, bookmarkGone.id));
      const pinKept = await remote();
      const pinGone = await remote();
      await storage.pins.put(edge(aliceId, pinKept.id));
      await storage.pins.put(edge(dave.id, pinGone.id));

      const withPoll = async (voter: string) => {
        const pollId = ctx.ids.next();
        const status = await remote({ pollId });
        await storage.polls.put(makePoll({ id: pollId, statusId: status.id, accountId: dave.id }));
        await storage.pollVotes.put(makePollVote({ ...edge(voter, pollId), choices: [0] }));
        return status;
      };
      const voteKept = await withPoll(aliceId);
      const voteGone = await withPoll(dave.id);

      const mentionKept = await remote({ mentionIds: [aliceId], visibility: "direct" });
      const mentionGone = await remote({ mentionIds: [dave.id], visibility: "direct" });

      const notifiedKept = await remote();
      await storage.notifications.put(
        makeNotification({
          id: ctx.ids.next(),
          accountId: aliceId,
          type: "status",
          fromAccountId: dave.id,
          statusId: notifiedKept.id,
        }),
      );
      const notifiedGone = await remote();

      // Boosts: alice's keeps the original; dave's old one goes with its original.
      const boostedKept = await remote();
      const aliceBoost = await put(alice.account, { reblogOfId: boostedKept.id });
      const boostedGone = await remote();
      const daveBoost = await remote({ reblogOfId: boostedGone.id });
      // Dave's boost of a local status stays (the local status's boost count).
      const localStatus = await put(alice.account);
      const daveBoostOfLocal = await remote({ reblogOfId: localStatus.id });

      // Replies: alice's keeps the parent; dave's old thread goes whole (reply first).
      const repliedKept = await remote();
      const aliceReply = await put(alice.account, {
        inReplyToId: repliedKept.id,
        inReplyToAccountId: dave.id,
      });
      const repliedGone = await remote();
      const daveReply = await remote({ inReplyToId: repliedGone.id, inReplyToAccountId: dave.id });
      const daveReply2 = await remote({ inReplyToId: daveReply.id, inReplyToAccountId: dave.id });

      // Quotes: alice's accepted quote keeps what it quotes; dave's old one goes, then its quoted.
      const quoteOf = (quoted: Status) => ({
        quote: {
          quotedStatusId: quoted.id,
          quotedUri: quoted.uri,
          state: "accepted" as const,
          authorizationUri: null,
          requestUri: null,
        },
      });
      const quotedKept = await remote();
      const aliceQuote = await put(alice.account, quoteOf(quotedKept));
      const quotedGone = await remote();
      const daveQuote = await remote(quoteOf(quotedGone));
      for (const [quoting, quoted] of [
        [aliceQuote, quotedKept],
        [daveQuote, quotedGone],
      ] as const) {
        await storage.quotes.put(edge(quoting.id, quoted.id));
      }

      // A plain one with media (a file on the file host) and an earlier version.
      const mediaId = ctx.ids.next();
      const withMedia = await remote({ mediaIds: [mediaId] });
      const media = makeMedia({
        id: mediaId,
        accountId: dave.id,
        statusId: withMedia.id,
        fileKey: `media_attachments/${mediaId}/original.png`,
        previewKey: `media_attachments/${mediaId}/small.webp`,
      });
      await storage.media.put(media);
      for (const key of [media.fileKey, media.previewKey] as string[]) {
        await ctx.files.put(key, new Uint8Array([1, 2, 3]), "image/png");
      }
      await storage.statusEdits.put(
        makeStatusEdit({ id: ctx.ids.next(), statusId: withMedia.id, accountId: dave.id }),
      );
      const tombstone = await remote({ deleted: true, deletedAt: clock.now().toISOString() });
      const localOld = await put(alice.account);

      // Past the period; then newer remote statuses pointing at old ones keep them.
      clock.advance(31 * DAY);
      const boostedRecently = await remote();
      await remote({ reblogOfId: boostedRecently.id });
      const repliedRecently = await remote();
      await remote({ inReplyToId: repliedRecently.id, inReplyToAccountId: dave.id });
      const recent = await remote();

      await server.wren.jobs.runDue();

      const kept = {
        favKept,
        bookmarkKept,
        pinKept,
        voteKept,
        mentionKept,
        notifiedKept,
        boostedKept,
        aliceBoost,
        localStatus,
        daveBoostOfLocal,
        repliedKept,
        aliceReply,
        quotedKept,
        aliceQuote,
        localOld,
        boostedRecently,
        repliedRecently,
        recent,
      };
      const gone = {
        favGone,
        bookmarkGone,
        pinGone,
        voteGone,
        mentionGone,
        notifiedGone,
        boostedGone,
        daveBoost,
        repliedGone,
        daveReply,
        daveReply2,
        quotedGone,
        daveQuote,
        withMedia,
        tombstone,
      };
      for (const [name, status] of Object.entries(kept)) {
        assert.ok(await storage.statuses.get(status.id), `${name} is kept`);
      }
      for (const [name, status] of Object.entries(gone)) {
        assert.equal(await storage.statuses.get(status.id), undefined, `${name} is removed`);
        assert.equal(await storage.statuses.findByUri(status.uri), undefined, name);
      }
      // What only the removed statuses used went with them.
      assert.equal(await storage.polls.get(voteGone.pollId as string), undefined);
      assert.ok(await storage.polls.get(voteKept.pollId as string));
      assert.equal(await storage.media.get(mediaId), undefined);
      assert.equal(await ctx.files.get(media.fileKey as string), null);
      assert.equal(await ctx.files.get(media.previewKey as string), null);
      assert.deepEqual(await storage.statusEdits.listByStatus(withMedia.id), []);
      assert.equal(await storage.statuses.countByAccount(dave.id), 15);
      assert.equal(await storage.quotes.countTo(quotedGone.id), 0);
      assert.equal(await storage.quotes.countTo(quotedKept.id), 1);
      // The API no longer knows them; the kept ones still answer.
      const status = (id: string) =>
        server.request(`/api/v1/statuses/${id}`, { token: alice.token });
      assert.equal((await status(favGone.id)).status, 404);
      assert.equal((await status(favKept.id)).status, 200);
      // The schedule goes on.
      assert.ok(await storage.jobs.get(REMOTE_RETENTION_JOB.ids[1]));
    });

    it("off (0), schedules nothing, and a run still waiting ends the schedule", async () => {
      const { ctx } = server.wren;
      const off = { ...ctx, settings: { ...ctx.settings, remoteStatusRetentionDays: 0 } };
      const [a, b] = REMOTE_RETENTION_JOB.ids;
      const waiting = await ctx.storage.jobs.get(b);
      assert.ok(waiting);
      await ctx.storage.jobs.delete(b);
      await ensureRemoteRetentionScheduled(off);
      assert.equal(await ctx.storage.jobs.get(a), undefined);
      assert.equal(await ctx.storage.jobs.get(b), undefined);

      // A plain remote status, old by then: left alone.
      await ctx.storage.statuses.put(statusRecord(server, dave));
      clock.advance(60 * DAY);
      await runRemoteRetention(off, waiting);
      assert.equal(await ctx.storage.jobs.get(a), undefined, "no successor");
      assert.equal(await ctx.storage.statuses.countByAccount(dave.id), 16);
      // On again (a restart with the setting): one run waits.
      await ensureRemoteRetentionScheduled(ctx);
      assert.ok(await ctx.storage.jobs.get(a));
    });
  });
}
