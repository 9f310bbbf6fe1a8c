// The use cases' context over an open storage: clock, ids, file host, event bus, durable queue,
// mailer and listeners. The `wren` commands that run an operation without a server build this
// alone: they run no jobs, so they load neither the job handlers (and the media, card and
// archive code behind them) nor the HTTP and federation layers (ADR 0053). A serving process
// builds it through createServices (./services.ts), which adds the job runner.

import { join } from "node:path";
import type { Config } from "../config/schema.ts";
import { type Clock, systemClock } from "../domain/clock.ts";
import { createDurableQueue } from "../jobs/durable-queue.ts";
import { createSmtpMailer } from "../mail/smtp-mailer.ts";
import type { FileHost } from "../media/file-host.ts";
import { createLocalDirectoryHost } from "../media/local-directory.ts";
import { createS3Host } from "../media/s3.ts";
import { confirmEvent, intentRecordOf } from "../services/confirm-event.ts";
import type { InstanceSettings, ServiceContext } from "../services/context.ts";
import { createEventBus } from "../services/events.ts";
import { subscribeListeners } from "../services/listeners.ts";
import { offlineRemote } from "../services/remote.ts";
import type { Storage } from "../storage/ports.ts";

export interface ServiceContextOptions {
  clock?: Clock;
  /**
   * Told the due time of every job enqueued: the job runner of a process that runs jobs. A
   * process that runs none (a one-off command) leaves its jobs to the server.
   */
  wake?(runAt?: string): void;
}

export function instanceSettings(config: Config): InstanceSettings {
  return {
    publicUrl: config.publicUrl,
    ...(config.streamingUrl ? { streamingUrl: config.streamingUrl } : {}),
    domain: new URL(config.publicUrl).host,
    title: config.instanceTitle,
    description: config.instanceDescription,
    contactEmail: config.contactEmail,
    registrations: config.registrations,
    maxStatusCharacters: config.maxStatusCharacters,
    maxMediaAttachments: config.maxMediaAttachments,
    maxImageBytes: config.maxImageBytes,
    remoteStatusRetentionDays: config.remoteStatusRetentionDays,
    passwordHashCost: config.passwordHashCost,
    rules: config.rules,
    showDomainBlocks: config.showDomainBlocks,
    trendsRequireReview: config.trendsRequireReview,
    federationMode: config.federationMode,
    ffmpeg: {
      ffmpegPath: config.ffmpegPath,
      ffprobePath: config.ffprobePath,
      searchPath: config.searchPath,
    },
  };
}

/** Builds the use cases' context over an open storage, with its listeners. */
export function createServiceContext(
  config: Config,
  storage: Storage,
  options: ServiceContextOptions = {},
): ServiceContext {
  const clock = options.clock ?? systemClock;
  // From the storage: with several processes on one database, each mints in its own id slot.
  const ids = storage.coordination.idGenerator(() => clock.now().getTime());
  const wake = options.wake;
  const queue = createDurableQueue(storage.jobs, clock, ids, (runAt) => wake?.(runAt));
  const ctx: ServiceContext = {
    storage,
    clock,
    ids,
    files: createFileHost(config),
    scratchDir: join(config.dataDir, "scratch"),
    settings: instanceSettings(config),
    events: createEventBus({
      jobs: queue,
      clock,
      confirm: (event) => confirmEvent(storage, event),
      intentRecord: intentRecordOf,
      leaseMs: config.eventLeaseSeconds * 1000,
    }),
    jobs: queue,
    remote: offlineRemote,
    ...(config.smtpUrl
      ? {
          mailer: createSmtpMailer({
            url: config.smtpUrl,
            from: config.smtpFrom ?? `notifications@${new URL(config.publicUrl).hostname}`,
          }),
        }
      : {}),
  };
  subscribeListeners(ctx);
  return ctx;
}

export function mediaDirectory(config: Config): string {
  return join(config.dataDir, "media");
}

/** The configured file host; WREN_MEDIA_PUBLIC_URL, if set, is the media URL base of both. */
export function createFileHost(config: Config): FileHost {
  if (config.mediaDriver === "s3") {
    // The schema refuses an s3 driver without these, so the fallbacks are never used.
    return createS3Host({
      endpoint: config.s3Endpoint ?? "",
      region: config.s3Region,
      bucket: config.s3Bucket ?? "",
      accessKeyId: config.s3AccessKeyId ?? "",
      secretAccessKey: config.s3SecretAccessKey ?? "",
      forcePathStyle: config.s3ForcePathStyle,
      ...(config.mediaPublicUrl ? { publicUrl: config.mediaPublicUrl } : {}),
    });
  }
  return createLocalDirectoryHost(
    mediaDirectory(config),
    config.mediaPublicUrl ?? `${config.publicUrl}/media`,
  );
}
