// `wren serve`: runs the server until SIGTERM or SIGINT, then shuts down gracefully: stop
// accepting, let running requests finish, close the storage (flushing it and releasing the
// lock), remove the admin socket. A second signal exits at once.

import { getLogger } from "@logtape/logtape";
import { loadConfig } from "../../config/load.ts";
import type { Config } from "../../config/schema.ts";
import { setupLogging, shutdownLogging } from "../../logging.ts";
import type { RunningWren } from "../../main.ts";
import { type Command, EXIT_FAILURE, EXIT_OK, UsageError } from "../command.ts";
import { otherOwnerOf } from "../data-dir-owner.ts";
import { shellQuote } from "../shell-quote.ts";
import { explainStartError } from "../start-errors.ts";

const logger = getLogger(["wren", "serve"]);

/** A repeated signal within this time is the same request, not an impatient second one. */
const DUPLICATE_SIGNAL_MS = 500;

export const serveCommand: Command = {
  path: ["serve"],
  summary: "Start the Wren server (configured by WREN_* variables; see docs/configuration.md).",
  positionals: [],
  options: {
    role: {
      type: "string",
      valueName: "ROLE",
      description:
        "all (default): HTTP and jobs; web: HTTP only; worker: jobs only (deliveries, media, schedules). Overrides WREN_ROLE.",
    },
  },
  details: `Stops gracefully on SIGTERM or Ctrl+C; a second signal (half a second or more later) stops at once.

On PostgreSQL, run several processes on one database: web processes behind a load balancer and
workers beside them (docs/deployment.md). The json-file backend takes one process only.`,
  async run({ options }) {
    const config = withRole(loadConfig(), options.role);
    await setupLogging(config);
    warnIfOtherOwner(config);
    const wren = await start(config);
    // Signals are handled from here on: a SIGTERM right after start still shuts down cleanly.
    const stopped = untilStopped(wren);
    // A hint is not worth failing a started server over.
    const users = await wren.ctx.storage.users.count().catch(() => -1);
    process.stdout.write(banner(wren) + (users === 0 ? firstRunHint(config) : ""));
    const code = await stopped;
    process.stdout.write("Wren has stopped.\n");
    await shutdownLogging();
    return code;
  },
};

const ROLES = ["all", "web", "worker"] as const;

function withRole(config: Config, role: string | boolean | undefined): Config {
  if (role === undefined) return config;
  const found = ROLES.find((r) => r === role);
  if (!found) {
    throw new UsageError(
      `--role takes all, web or worker, got "${String(role)}"`,
      "wren serve --help",
    );
  }
  if (found !== "all" && config.storage === "json-file") {
    throw new UsageError(
      "--role web and --role worker need WREN_STORAGE=postgres: the json-file backend is one process, which must do both",
      "wren serve --help",
    );
  }
  return { ...config, role: found };
}

async function start(config: Config): Promise<RunningWren> {
  // Loaded on demand, so that `wren --help` and the other commands start quickly.
  const { startWren } = await import("../../main.ts");
  try {
    return await startWren(config);
  } catch (error) {
    throw explainStartError(error, config);
  }
}

/** Files this server creates would belong to another user than the directory's owner. */
function warnIfOtherOwner(config: Config): void {
  if (config.storage !== "json-file") return;
  const other = otherOwnerOf(config.dataDir);
  if (other === null) return;
  logger.warn(
    "The data directory {dataDir} belongs to uid {owner}, but Wren runs as uid {uid}: the files it creates will belong to uid {uid}, and a server or command run as uid {owner} later cannot rewrite them",
    { dataDir: config.dataDir, ...other },
  );
}

function banner(wren: RunningWren): string {
  const { config } = wren;
  return [
    wren.listenUrl === null
      ? "Wren is running as a worker (jobs only, no HTTP)"
      : `Wren is listening on ${wren.listenUrl}${config.role === "web" ? " (web only, no jobs)" : ""}`,
    `  public address: ${config.publicUrl}`,
    config.storage === "postgres"
      ? `  database:       ${databaseHost(config)}`
      : `  data directory: ${config.dataDir}`,
    ...(wren.adminSocket === null ? [] : [`  admin socket:   ${wren.adminSocket}`]),
    ...portMismatch(wren),
    "Stop it with Ctrl+C (or SIGTERM).",
    "",
  ].join("\n");
}

/** The database's host and name, never its password. */
function databaseHost(config: Config): string {
  try {
    const url = new URL(config.databaseUrl ?? "");
    return `${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}`;
  } catch {
    return "(unreadable WREN_DATABASE_URL)";
  }
}

/**
 * A public address on this machine with another port than the one Wren listens on is almost
 * always a forgotten WREN_PUBLIC_URL after changing WREN_PORT (a reverse proxy would have a
 * real host name): links and apps would go to the wrong port.
 */
function portMismatch(wren: RunningWren): string[] {
  if (wren.listenUrl === null) return [];
  const publicUrl = new URL(wren.config.publicUrl);
  const listening = new URL(wren.listenUrl);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(publicUrl.hostname);
  const publicPort = publicUrl.port || (publicUrl.protocol === "https:" ? "443" : "80");
  if (!local || publicPort === listening.port) return [];
  return [
    `  note: the public address uses port ${publicPort}, but Wren listens on ${listening.port};`,
    `        set WREN_PUBLIC_URL=${listening.protocol}//localhost:${listening.port} if apps should come here.`,
  ];
}

/**
 * The account command as it must be typed for this server: a command without WREN_DATA_DIR would
 * open `./data` of whatever folder it runs in, not the directory this server holds (see
 * new-data-directory.ts), so the absolute path is always spelled out.
 */
export function accountCreateCommand(config: Config): string {
  return [
    `WREN_DATA_DIR=${shellQuote(config.dataDir)}`,
    "npx wren account create alice --email alice@example.com --password 'a long passphrase' --admin",
  ].join(" ");
}

function firstRunHint(config: Config): string {
  return [
    "",
    "This server has no accounts yet. Create the first one, an administrator, from another",
    "terminal in this folder (it talks to the running server):",
    "",
    `  ${accountCreateCommand(config)}`,
    "",
    "Then sign in from a Mastodon app (Elk, Phanpy, Ivory, Tusky, Ice Cubes…): when it asks",
    `for your server, enter ${config.publicUrl}`,
    "(apps must reach that address; set WREN_PUBLIC_URL to the server's real https:// address).",
    "",
  ].join("\n");
}

/** Resolves with the exit code once a signal has stopped the server. */
function untilStopped(wren: RunningWren): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    let firstAt = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      // One stop request often arrives twice at once: Ctrl+C reaches the whole process group,
      // and systemd signals every process of the unit (a launcher forwards it too).
      if (stopping && Date.now() - firstAt < DUPLICATE_SIGNAL_MS) return;
      if (stopping) {
        process.stderr.write(`Received ${signal} again: exiting without waiting.\n`);
        process.exit(EXIT_FAILURE);
      }
      stopping = true;
      firstAt = Date.now();
      logger.info("Received {signal}; finishing running requests, then stopping", { signal });
      wren.close().then(
        () => resolve(EXIT_OK),
        (error: unknown) => {
          logger.error("Shutdown failed: {error}", { error });
          resolve(EXIT_FAILURE);
        },
      );
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}
