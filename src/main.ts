// Wires a serving Wren together: config → storage → services → federation → HTTP (+ admin
// socket), with the storage, services and federation built by src/wiring/ (which the `wren`
// commands that run without a server load alone, ADR 0053). The CLI's `serve` command and the
// tests both start Wren through startWren().

import { readFile } from "node:fs/promises";
import type { Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { getLogger } from "@logtape/logtape";
import { adminSocketPath } from "./admin/protocol.ts";
import { startAdminSocket } from "./admin/server.ts";
import type { Config } from "./config/schema.ts";
import { createLibreTranslate } from "./federation/libre-translate.ts";
import { FEDERATION_TASK_JOB, queuedMessage } from "./federation/message-queue.ts";
import { createHttp } from "./http/app.ts";
import type { HttpLimits } from "./http/env.ts";
import { trackInFlight } from "./http/in-flight.ts";
import { attachWebSocketStreaming } from "./http/streaming/websocket.ts";
import type { JobRunner } from "./jobs/runner.ts";
import { ensureSuspensionSweepScheduled } from "./services/accounts/suspension-expiry.ts";
import { backfillSuspensionPurges } from "./services/accounts/suspension-purge-backfill.ts";
import type { ServiceContext } from "./services/context.ts";
import { releaseLeasedEvents } from "./services/events.ts";
import { ensureFailedJobsPruneScheduled } from "./services/maintenance/failed-jobs-prune.ts";
import { ensureKvPruneScheduled } from "./services/maintenance/kv-prune.ts";
import { ensureRemoteRetentionScheduled } from "./services/maintenance/remote-status-retention.ts";
import { ensureMediaCleanupScheduled } from "./services/media/cleanup-schedule.ts";
import { reportFfmpeg } from "./services/media/report-ffmpeg.ts";
import { repairPollCounts } from "./services/polls/repair-poll-counts.ts";
import { ensurePurgeSweepScheduled } from "./services/statuses/purge-deleted-sweep.ts";
import { attachFederation } from "./wiring/federation.ts";
import { mediaDirectory } from "./wiring/service-context.ts";
import { createServices, type ServicesOptions } from "./wiring/services.ts";
import { type OpenStorageOptions, openStorage } from "./wiring/storage.ts";

const logger = getLogger(["wren", "server"]);

/** How long a shutdown waits for handlers whose clients hung up (a second signal stops at once). */
const SHUTDOWN_DRAIN_LIMIT_MS = 30_000;

export interface StartOptions extends ServicesOptions, OpenStorageOptions {}

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
  jobs.register(FEDERATION_TASK_JOB, (payload) => federation.runTask(queuedMessage(payload)));
  const http = createHttp({
    ctx,
    federationFetch: federation.fetch,
    trustedProxies: config.trustedProxies,
    publicCacheSeconds: config.publicCacheSeconds,
    signedInCache: {
      seconds: config.signedInCacheSeconds,
      bytes: config.signedInCacheMegabytes * 1024 * 1024,
    },
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
