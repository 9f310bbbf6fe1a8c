// Every job type Wren runs, wired to the use case that does the work. Job handlers are thin:
// they decode the payload and call a service.

import type { ImportRow } from "../domain/csv-import.ts";
import { PROCESSING_FAILED } from "../media/processing-error.ts";
import { deleteAccountData, OPERATOR } from "../services/accounts/moderate-account.ts";
import { ACCOUNT_MAIL_JOB, sendAccountMail } from "../services/accounts/send-account-mail.ts";
import {
  purgeExpiredSuspension,
  runSuspensionSweep,
  SUSPENSION_PURGE_JOB,
  SUSPENSION_SWEEP_JOB,
} from "../services/accounts/suspension-expiry.ts";
import {
  ANNUAL_REPORT_JOB,
  generateAnnualReport,
} from "../services/annual-reports/annual-reports.ts";
import { buildArchive, failArchive } from "../services/archives/build-archive.ts";
import { ARCHIVE_BUILD_JOB } from "../services/archives/request-archive.ts";
import { fetchStatusCard, PREVIEW_CARD_JOB } from "../services/cards/fetch-card.ts";
import type { ServiceContext } from "../services/context.ts";
import {
  DOMAIN_LIFT_JOB,
  DOMAIN_PURGE_JOB,
  liftDomainSuspension,
  purgeSuspendedDomain,
} from "../services/domain-blocks/domain-block-effects.ts";
import { EVENT_JOB } from "../services/events.ts";
import { MUTE_EXPIRE_JOB, removeLapsedMute } from "../services/graph/mute-expiry.ts";
import {
  IMPORT_PREPARE_JOB,
  IMPORT_ROW_JOB,
  IMPORT_ROW_MAX_ATTEMPTS,
  importRow,
  prepareImport,
} from "../services/imports/import-jobs.ts";
import {
  FAILED_JOBS_PRUNE_JOB,
  runFailedJobsPrune,
} from "../services/maintenance/failed-jobs-prune.ts";
import { KV_PRUNE_JOB, runKvPrune } from "../services/maintenance/kv-prune.ts";
import {
  REMOTE_RETENTION_JOB,
  runRemoteRetention,
} from "../services/maintenance/remote-status-retention.ts";
import { MEDIA_CLEANUP_JOB, runMediaCleanup } from "../services/media/cleanup-schedule.ts";
import {
  failMediaProcessing,
  MEDIA_PROCESS_JOB,
  processMedia,
} from "../services/media/process-media.ts";
import {
  MEDIA_PURGE_DELETED_JOB,
  purgeDeletedStatusMedia,
} from "../services/media/purge-deleted-status-media.ts";
import { POLL_EXPIRE_JOB } from "../services/polls/create-poll.ts";
import { expirePoll } from "../services/polls/expire-poll.ts";
import { PUSH_MAX_ATTEMPTS, runPushJob } from "../services/push/deliver-push.ts";
import { PUSH_JOB } from "../services/push/hold-pushes.ts";
import { PUBLISH_SCHEDULED_JOB } from "../services/scheduled-statuses/publish-job.ts";
import { publishScheduledStatus } from "../services/scheduled-statuses/publish-scheduled.ts";
import { DELETE_REBLOGS_JOB, finishDeletingReblogs } from "../services/statuses/delete-reblogs.ts";
import {
  PURGE_DELETED_CONTENT_JOB,
  purgeDeletedContent,
} from "../services/statuses/purge-deleted-content.ts";
import { PURGE_SWEEP_JOB, runPurgeSweep } from "../services/statuses/purge-deleted-sweep.ts";
import type { JobRunner } from "./runner.ts";

const MEDIA_PROCESS_MAX_ATTEMPTS = 5;
const ARCHIVE_MAX_ATTEMPTS = 5;

export function registerJobHandlers(runner: JobRunner, ctx: ServiceContext): void {
  runner.register(EVENT_JOB, (payload) => ctx.events.runRecorded(payload));
  runner.register(MEDIA_CLEANUP_JOB, async (_payload, job) => {
    await runMediaCleanup(ctx, job);
  });
  runner.register(KV_PRUNE_JOB.type, async (_payload, job) => {
    await runKvPrune(ctx, job);
  });
  runner.register(FAILED_JOBS_PRUNE_JOB.type, async (_payload, job) => {
    await runFailedJobsPrune(ctx, job);
  });
  runner.register(REMOTE_RETENTION_JOB.type, async (_payload, job) => {
    await runRemoteRetention(ctx, job);
  });
  runner.register(MEDIA_PURGE_DELETED_JOB, async (payload) => {
    if (typeof payload.statusId === "string") await purgeDeletedStatusMedia(ctx, payload.statusId);
  });
  // Unusable files fail at once inside processMedia; what is retried are passing troubles (file
  // host, disk). Five attempts span about 14 minutes (10 s, 40 s, 160 s, 640 s); after the last
  // the attachment is marked failed so the client stops waiting for it.
  runner.register(
    MEDIA_PROCESS_JOB,
    async (payload, job) => {
      if (typeof payload.mediaId !== "string") return;
      try {
        await processMedia(ctx, payload.mediaId);
      } catch (error) {
        if (job.attempts + 1 >= MEDIA_PROCESS_MAX_ATTEMPTS) {
          await failMediaProcessing(ctx, payload.mediaId, PROCESSING_FAILED);
        }
        throw error;
      }
    },
    { maxAttempts: MEDIA_PROCESS_MAX_ATTEMPTS },
  );
  // A failed build (file host, storage) is retried with the queue's backoff; after the last
  // attempt the archive shows as failed, and its owner may ask again.
  runner.register(
    ARCHIVE_BUILD_JOB,
    async (payload, job) => {
      const { accountId, archiveId } = payload;
      if (typeof accountId !== "string" || typeof archiveId !== "string") return;
      try {
        await buildArchive(ctx, accountId, archiveId);
      } catch (error) {
        if (job.attempts + 1 >= ARCHIVE_MAX_ATTEMPTS) {
          await failArchive(ctx, accountId, archiveId, "The archive could not be made");
        }
        throw error;
      }
    },
    { maxAttempts: ARCHIVE_MAX_ATTEMPTS },
  );
  // A suspended domain's stored content; the job checks the block is still a suspension.
  runner.register(DOMAIN_PURGE_JOB, async (payload) => {
    if (typeof payload.domain === "string") await purgeSuspendedDomain(ctx, payload.domain);
  });
  // A suspension's grace period is over: its data goes, as an admin's deletion would.
  runner.register(SUSPENSION_PURGE_JOB, async (payload) => {
    const { accountId, suspendedAt } = payload;
    if (typeof accountId !== "string" || typeof suspendedAt !== "string") return;
    await purgeExpiredSuspension(ctx, accountId, suspendedAt, (id) =>
      deleteAccountData(ctx, OPERATOR, id),
    );
  });
  runner.register(SUSPENSION_SWEEP_JOB.type, async (_payload, job) => {
    await runSuspensionSweep(ctx, job, (id) => deleteAccountData(ctx, OPERATOR, id));
  });
  // A lifted suspension whose inline run did not finish (a crash): the job checks the block.
  runner.register(DOMAIN_LIFT_JOB, async (payload) => {
    if (typeof payload.domain === "string") await liftDomainSuspension(ctx, payload.domain);
  });
  runner.register(DELETE_REBLOGS_JOB, async (payload) => {
    if (typeof payload.statusId === "string") await finishDeletingReblogs(ctx, payload.statusId);
  });
  runner.register(PURGE_DELETED_CONTENT_JOB, async (payload) => {
    if (typeof payload.statusId === "string") await purgeDeletedContent(ctx, payload.statusId);
  });
  runner.register(PURGE_SWEEP_JOB.type, async (_payload, job) => {
    await runPurgeSweep(ctx, job);
  });
  runner.register(MUTE_EXPIRE_JOB, async (payload) => {
    const { accountId, targetId } = payload;
    if (typeof accountId === "string" && typeof targetId === "string") {
      await removeLapsedMute(ctx, accountId, targetId);
    }
  });
  runner.register(POLL_EXPIRE_JOB, async (payload) => {
    // A payload without a poll id can never succeed: nothing to do rather than retrying.
    if (typeof payload.pollId === "string") await expirePoll(ctx, payload.pollId);
  });
  // Page troubles end in "no card" inside the service; what is retried are storage troubles.
  runner.register(PREVIEW_CARD_JOB, async (payload) => {
    if (typeof payload.statusId === "string") await fetchStatusCard(ctx, payload.statusId);
  });
  runner.register(ANNUAL_REPORT_JOB, async (payload) => {
    const { accountId, year } = payload;
    if (typeof accountId === "string" && typeof year === "number") {
      await generateAnnualReport(ctx, accountId, year);
    }
  });
  // A mail server that refuses or cannot be reached is tried again with the queue's backoff.
  runner.register(ACCOUNT_MAIL_JOB, (payload) => sendAccountMail(ctx, payload));
  // 408, 429 and 5xx answers and unreachable push services are retried (10 s, 40 s, 160 s,
  // 640 s), then given up; a dead subscription is removed inside deliverPush.
  runner.register(
    PUSH_JOB,
    async (payload, job) => {
      const { notificationId, tokenId } = payload;
      if (typeof notificationId === "string" && typeof tokenId === "string") {
        const lastAttempt = job.attempts + 1 >= PUSH_MAX_ATTEMPTS;
        await runPushJob(ctx, notificationId, tokenId, lastAttempt);
      }
    },
    { maxAttempts: PUSH_MAX_ATTEMPTS },
  );
  runner.register(IMPORT_PREPARE_JOB, async (payload) => {
    const { importId, rows } = payload;
    if (typeof importId === "string" && Array.isArray(rows)) {
      await prepareImport(ctx, importId, rows as ImportRow[]);
    }
  });
  runner.register(
    IMPORT_ROW_JOB,
    async (payload, job) => {
      const { importId, index, row } = payload;
      if (typeof importId !== "string" || typeof index !== "number") return;
      if (typeof row !== "object" || row === null) return;
      const lastAttempt = job.attempts + 1 >= IMPORT_ROW_MAX_ATTEMPTS;
      await importRow(ctx, importId, index, row as ImportRow, lastAttempt);
    },
    { maxAttempts: IMPORT_ROW_MAX_ATTEMPTS },
  );
  runner.register(PUBLISH_SCHEDULED_JOB, async (payload) => {
    if (typeof payload.scheduledStatusId === "string") {
      await publishScheduledStatus(ctx, payload.scheduledStatusId);
    }
  });
}
