// The only place that wires Wren together: config → storage → services → HTTP (+ admin socket).
// The CLI's `serve` command and the tests both start Wren through startWren().

import { readFile } from "node:fs/promises";
import type { Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Message } from "@fedify/fedify";
import { serve } from "@hono/node-server";
import { getLogger } from "@logtape/logtape";
import { adminSocketPath } from "./admin/protocol.ts";
import { startAdminSocket } from "./admin/server.ts";
import type { Config } from "./config/schema.ts";
import { type Clock, systemClock } from "./domain/clock.ts";
import { createArchiveDocuments } from "./federation/archive-documents.ts";
import { createWrenFederation } from "./federation/federation.ts";
import { createLibreTranslate } from "./federation/libre-translate.ts";
import { createLinkFetcher } from "./federation/link-fetcher.ts";
import { FEDERATION_TASK_JOB } from "./federation/message-queue.ts";
import { createPushSender } from "./federation/push-sender.ts";
import { createRemoteResolver } from "./federation/resolver.ts";
import { createHttp } from "./http/app.ts";
import type { HttpLimits } from "./http/env.ts";
import { trackInFlight } from "./http/in-flight.ts";
import { attachWebSocketStreaming } from "./http/streaming/websocket.ts";
import { createDurableQueue } from "./jobs/durable-queue.ts";
import { registerJobHandlers } from "./jobs/handlers.ts";
import { createJobRunner, type JobRunner } from "./jobs/runner.ts";
import { createSmtpMailer } from "./mail/smtp-mailer.ts";
import type { FileHost } from "./media/file-host.ts";
import { createLocalDirectoryHost } from "./media/local-directory.ts";
import { createS3Host } from "./media/s3.ts";
import { ensureSuspensionSweepScheduled } from "./services/accounts/suspension-expiry.ts";
import { backfillSuspensionPurges } from "./services/accounts/suspension-purge-backfill.ts";
import { confirmEvent, intentRecordOf } from "./services/confirm-event.ts";
import type { InstanceSettings, ServiceContext } from "./services/context.ts";
import { createEventBus, releaseLeasedEvents } from "./services/events.ts";
import { subscribeListeners } from "./services/listeners.ts";
import { ensureFailedJobsPruneScheduled } from "./services/maintenance/failed-jobs-prune.ts";
import { ensureKvPruneScheduled } from "./services/maintenance/kv-prune.ts";
import { ensureRemoteRetentionScheduled } from "./services/maintenance/remote-status-retention.ts";
import { ensureMediaCleanupScheduled } from "./services/media/cleanup-schedule.ts";
import { reportFfmpeg } from "./services/media/report-ffmpeg.ts";
import { repairPollCounts } from "./services/polls/repair-poll-counts.ts";
import { offlineRemote } from "./services/remote.ts";
import { ensurePurgeSweepScheduled } from "./services/statuses/purge-deleted-sweep.ts";
import { openJsonFileStorage, type WriteFaults } from "./storage/json-file/index.ts";
import type { Storage } from "./storage/ports.ts";
import { openPostgresStorage } from "./storage/postgres/index.ts";

const logger = getLogger(["wren", "server"]);

/** How long a shutdown waits for handlers whose clients hung up (a second signal stops at once). */
const SHUTDOWN_DRAIN_LIMIT_MS = 30_000;

export interface StartOptions {
  clock?: Clock;
  /** Tests only: makes the json-file storage fail like a full or read-only disk. */
  writeFaults?: WriteFaults;
}

export interface RunningWren {
  /** The address the HTTP server listens on (may differ from the public URL); null for a worker. */
  listenUrl: string | null;
  /**
   * The admin socket the `wren` command talks to (`<dataDir>/admin.sock`); null on PostgreSQL,
   * where commands open the database themselves beside the running processes.
   */
  adminSocket: string | null;
  ctx: ServiceContext;
  /** The job runner; tests move the clock and call `jobs.runDue()`. */
  jobs: JobRunner;
  config: Config;
  /** How many callers the API and inbox rate limits hold in memory now (each capped; ADR 0009). */
  trackedCallers(): number;
  /** Stops accepting requests, lets running ones finish, flushes storage, releases the lock. */
  close(): Promise<void>;
}

/** The memory cap of the in-memory limits, the per-account budgets and the inbox limits. */
function rateLimitSettings(
  config: Config,
): Pick<
  HttpLimits,
  | "accountRateLimit"
  | "maxTrackedKeys"
  | "statusBudget"
  | "mediaBudget"
  | "followBudget"
  | "inboxPerAddress"
  | "inboxPerSender"
> {
  const inboxWindow = config.inboxRateLimitWindowSeconds;
  return {
    accountRateLimit: {
      requests: config.accountRateLimitRequests,
      windowSeconds: config.rateLimitWindowSeconds,
    },
    maxTrackedKeys: config.rateLimitMaxTrackedKeys,
    statusBudget: {
      requests: config.statusRateLimitRequests,
      windowSeconds: config.statusRateLimitWindowSeconds,
    },
    mediaBudget: {
      requests: config.mediaRateLimitRequests,
      windowSeconds: config.mediaRateLimitWindowSeconds,
    },
    followBudget: {
      requests: config.followRateLimitRequests,
      windowSeconds: config.followRateLimitWindowSeconds,
    },
    inboxPerAddress: { requests: config.inboxRateLimitRequests, windowSeconds: inboxWindow },
    inboxPerSender: { requests: config.inboxSenderRateLimitRequests, windowSeconds: inboxWindow },
  };
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

export async function openStorage(
  config: Config,
  options: Pick<StartOptions, "writeFaults"> = {},
): Promise<Storage> {
  if (config.storage === "postgres") {
    // The schema refuses postgres without a URL, so the fallback is never used.
    return openPostgresStorage({ url: config.databaseUrl ?? "", poolMax: config.databasePoolMax });
  }
  return openJsonFileStorage(config.dataDir, { writeFaults: options.writeFaults });
}

export interface Services {
  ctx: ServiceContext;
  /** Runs the durable queue's jobs; started only by a serving process. */
  jobs: JobRunner;
}

/** Builds the use cases' context over an open storage, with its listeners and job handlers. */
export function createServices(
  config: Config,
  storage: Storage,
  options: StartOptions = {},
): Services {
  const clock = options.clock ?? systemClock;
  // From the storage: with several processes on one database, each mints in its own id slot.
  const ids = storage.coordination.idGenerator(() => clock.now().getTime());
  const jobs = createJobRunner(storage.jobs, clock, { leaseMs: config.jobLeaseSeconds * 1000 });
  const queue = createDurableQueue(storage.jobs, clock, ids, (runAt) => jobs.wake(runAt));
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
  registerJobHandlers(jobs, ctx);
  return { ctx, jobs };
}

/** The service context alone, for one-off commands that do not run jobs (offline CLI). */
export function createServiceContext(
  config: Config,
  storage: Storage,
  options: StartOptions = {},
): ServiceContext {
  return createServices(config, storage, options).ctx;
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

/** The PEM certificate and key when WREN_TLS_CERT/WREN_TLS_KEY are set (the schema wants both). */
async function readTlsFiles(config: Config): Promise<{ cert: Buffer; key: Buffer } | undefined> {
  if (!config.tlsCertFile || !config.tlsKeyFile) return undefined;
  const [cert, key] = await Promise.all([
    readFile(config.tlsCertFile),
    readFile(config.tlsKeyFile),
  ]);
  return { cert, key };
}

function listenUrlOf(server: ReturnType<typeof serve>, tls: boolean): string {
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `${tls ? "https" : "http"}://${host}:${address.port}`;
}

/**
 * Builds the federation over the services: it subscribes the outbox to their events, and the
 * services reach other servers through it (search with resolve, mentions, moves) and fetch
 * linked pages under the same address guard. Also for commands that run without a server and
 * need either (their activities wait in the durable queue for the server).
 */
export function attachFederation(
  config: Config,
  ctx: ServiceContext,
): ReturnType<typeof createWrenFederation> {
  const federation = createWrenFederation(ctx, {
    allowPrivateAddress: config.allowPrivateAddresses,
    delivery: {
      firstRetryMs: config.deliveryRetrySeconds * 1000,
      probeMs: config.deliveryProbeSeconds * 1000,
    },
  });
  ctx.remote = createRemoteResolver(federation.federation, ctx);
  ctx.archiveDocuments = createArchiveDocuments(federation.federation, ctx);
  ctx.links = createLinkFetcher({
    publicUrl: config.publicUrl,
    allowPrivateAddress: config.allowPrivateAddresses,
  });
  // Web Push messages go to the endpoints apps gave, under the same guard.
  ctx.push = createPushSender(ctx, { allowPrivateAddress: config.allowPrivateAddresses });
  return federation;
}

export async function startWren(config: Config, options: StartOptions = {}): Promise<RunningWren> {
  const tls = await readTlsFiles(config);
  const storage = await openStorage(config, options);
  const { ctx, jobs } = createServices(config, storage, options);
  const serveHttp = config.role !== "worker";
  const runJobs = config.role !== "web";
  await reportFfmpeg(ctx);
  // Only processes that run jobs keep the hourly cleanup going (one-off commands run none).
  if (runJobs) {
    await Promise.all([
      ensureMediaCleanupScheduled(ctx),
      ensureKvPruneScheduled(ctx),
      ensureFailedJobsPruneScheduled(ctx),
      ensureSuspensionSweepScheduled(ctx),
      backfillSuspensionPurges(ctx),
      ensurePurgeSweepScheduled(ctx),
      ensureRemoteRetentionScheduled(ctx),
      repairPollCounts(ctx),
      // The lock file keeps any other process off a json-file data directory: events leased to
      // an inline run belong to a process that died, and run now rather than after their lease
      // (ADR 0013). On PostgreSQL other processes may be running theirs: the leases run out.
      config.storage === "json-file" ? releaseLeasedEvents(ctx.jobs) : 0,
    ]).catch(async (error) => {
      await storage.close();
      throw error;
    });
  }
  const federation = attachFederation(config, ctx);
  if (config.translationUrl) {
    ctx.translator = createLibreTranslate({
      url: config.translationUrl,
      apiKey: config.translationApiKey,
      publicUrl: config.publicUrl,
    });
  }
  jobs.register(FEDERATION_TASK_JOB, (payload) => federation.runTask(payload.message as Message));
  const http = createHttp({
    ctx,
    federationFetch: federation.fetch,
    trustedProxies: config.trustedProxies,
    publicCacheSeconds: config.publicCacheSeconds,
    limits: {
      bodyBytes: config.bodyLimitBytes,
      uploadBytes: config.uploadLimitBytes,
      rateLimit: {
        requests: config.rateLimitRequests,
        windowSeconds: config.rateLimitWindowSeconds,
      },
      loginRateLimit: {
        requests: config.loginRateLimitRequests,
        windowSeconds: config.loginRateLimitWindowSeconds,
      },
      loginAccountRateLimit: {
        requests: config.loginAccountRateLimitRequests,
        windowSeconds: config.loginAccountRateLimitWindowSeconds,
      },
      ...rateLimitSettings(config),
    },
    // Wren serves /media only for the local driver; S3 media are fetched from the bucket.
    mediaDirectory: config.mediaDriver === "local" ? mediaDirectory(config) : null,
  });

  const inFlight = trackInFlight(http.app.fetch);
  // Listening for streaming signals before serving: a stream opened at once misses nothing.
  if (serveHttp) await http.streaming.ready();
  const server = !serveHttp
    ? null
    : await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
        const listen = { fetch: inFlight.fetch, hostname: config.host, port: config.port };
        const s = serve(
          tls ? { ...listen, createServer: createHttpsServer, serverOptions: tls } : listen,
          () => resolve(s),
        );
        s.once("error", reject);
      }).catch(async (error) => {
        await storage.close();
        throw error;
      });
  const websockets = server
    ? attachWebSocketStreaming(server as Server, ctx, http.streaming)
    : null;
  // Started by startWren so that every running server (tests' too) accepts CLI commands. Only
  // json-file needs one: its lock makes the server the data's only writer.
  const admin =
    config.storage !== "json-file"
      ? null
      : await startAdminSocket(ctx, adminSocketPath(config.dataDir)).catch(async (error) => {
          if (server) await new Promise((resolve) => server.close(resolve));
          await storage.close();
          throw error;
        });
  if (runJobs) jobs.start();

  let closing: Promise<void> | undefined;
  return {
    listenUrl: server ? listenUrlOf(server, tls !== undefined) : null,
    adminSocket: admin?.path ?? null,
    ctx,
    jobs,
    config,
    trackedCallers: http.trackedCallers,
    close() {
      closing ??= (async () => {
        // Streams never end by themselves: they would hold the server's close open.
        websockets?.close();
        http.streaming.close();
        const httpClosed = new Promise<void>((resolve) => {
          if (!server) return resolve();
          const http = server as unknown as { closeIdleConnections?: () => void };
          // Idle keep-alive connections would hold close() open until their timeout, also those
          // that become idle when their in-flight request is answered: close them as they do.
          const sweep = setInterval(() => http.closeIdleConnections?.(), 50);
          server.close(() => {
            clearInterval(sweep);
            resolve();
          });
          http.closeIdleConnections?.();
        });
        await Promise.all([httpClosed, admin?.close(), jobs.stop()]);
        // A handler whose client hung up outlives its connection: let it finish its writes.
        if (!(await inFlight.drained(SHUTDOWN_DRAIN_LIMIT_MS))) {
          logger.warn("Stopping with requests still running after {seconds} s", {
            seconds: SHUTDOWN_DRAIN_LIMIT_MS / 1000,
          });
        }
        await storage.close();
      })();
      return closing;
    },
  };
}
