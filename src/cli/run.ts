// The `wren` command line: finds the command named by the first words of the arguments, parses the
// rest and runs it. Exit codes: 0 success, 1 the operation failed (message on stderr), 2 the
// command line was wrong (message and a pointer to --help on stderr).

import { readFileSync } from "node:fs";
import { AdminError } from "../admin/protocol.ts";
import { ConfigError } from "../config/load.ts";
import { AppError } from "../domain/errors.ts";
import {
  type Command,
  commandHelp,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  parseCommandArgs,
  UsageError,
  usageLine,
  wantsHelp,
} from "./command.ts";
import { accountCreate } from "./commands/account-create.ts";
import {
  accountAliasAdd,
  accountAliasList,
  accountAliasRemove,
  accountMove,
} from "./commands/account-move.ts";
import { accountResetPassword } from "./commands/account-reset-password.ts";
import {
  emailBlockAdd,
  emailBlockList,
  emailBlockRemove,
  ipBlockAdd,
  ipBlockList,
  ipBlockRemove,
} from "./commands/address-blocks.ts";
import {
  announcementCreate,
  announcementDelete,
  announcementList,
} from "./commands/announcement.ts";
import { archiveCommand } from "./commands/archive.ts";
import { exportCsvCommand, importCsv, importStatusCommand } from "./commands/csv.ts";
import { dbMigrate } from "./commands/db-migrate.ts";
import { doctorCommand } from "./commands/doctor.ts";
import {
  domainAllow,
  domainAllowed,
  domainBlock,
  domainDisallow,
  domainList,
  domainUnblock,
} from "./commands/domain.ts";
import { emojiAdd, emojiList, emojiRemove } from "./commands/emoji.ts";
import { instanceClear, instanceSet, instanceShow } from "./commands/instance.ts";
import { mediaPrune } from "./commands/media.ts";
import { accountRole, moderationCommands } from "./commands/moderation.ts";
import { reportList, reportReopen, reportResolve, reportShow } from "./commands/report.ts";
import { ruleAdd, ruleList, ruleRemove } from "./commands/rule.ts";
import { serveCommand } from "./commands/serve.ts";
import {
  accountApprove,
  accountPending,
  accountReject,
  inviteCreate,
  inviteList,
  inviteRevoke,
} from "./commands/sign-ups.ts";
import { tagAllow, tagDeny, tagList, tagSet, tagShow } from "./commands/tag.ts";
import { tokenCreate } from "./commands/token-create.ts";
import { exportCommand, importCommand } from "./commands/transfer.ts";

export const COMMANDS: readonly Command[] = [
  serveCommand,
  accountCreate,
  accountResetPassword,
  accountAliasAdd,
  accountAliasRemove,
  accountAliasList,
  accountMove,
  accountPending,
  accountApprove,
  accountReject,
  ...moderationCommands,
  accountRole,
  inviteCreate,
  inviteList,
  inviteRevoke,
  importCsv,
  importStatusCommand,
  exportCsvCommand,
  archiveCommand,
  tokenCreate,
  emojiAdd,
  emojiList,
  emojiRemove,
  announcementCreate,
  announcementList,
  announcementDelete,
  mediaPrune,
  domainBlock,
  domainUnblock,
  domainList,
  domainAllow,
  domainDisallow,
  domainAllowed,
  ipBlockAdd,
  ipBlockRemove,
  ipBlockList,
  emailBlockAdd,
  emailBlockRemove,
  emailBlockList,
  reportList,
  reportShow,
  reportResolve,
  reportReopen,
  tagList,
  tagShow,
  tagAllow,
  tagDeny,
  tagSet,
  ruleAdd,
  ruleList,
  ruleRemove,
  instanceSet,
  instanceShow,
  instanceClear,
  doctorCommand,
  dbMigrate,
  exportCommand,
  importCommand,
];

const GROUP_SUMMARIES: Record<string, string> = {
  account: "Manage local accounts",
  token: "Manage access tokens",
  invite: "Make and revoke invite links",
  emoji: "Manage custom emojis",
  announcement: "Manage announcements",
  media: "Manage uploaded media",
  domain: "Block, limit and allow other servers",
  "ip-block": "Block addresses from the server or from signing up",
  "email-block": "Refuse sign-ups from email domains",
  report: "Read and resolve reports about accounts",
  tag: "Review hashtags for the trends, and hide them",
  rule: "Manage the server rules",
  instance: "Publish the about page, privacy policy and terms of service",
  db: "Manage the PostgreSQL database",
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  return String(pkg.version);
}

function mainHelp(): string {
  const lines = [
    "Usage: wren COMMAND [ARGUMENTS]",
    "",
    "Wren, a federated microblogging server with a Mastodon-compatible API.",
    "",
    "Commands:",
  ];
  const width = Math.max(...COMMANDS.map((c) => c.path.join(" ").length));
  for (const command of COMMANDS) {
    lines.push(`  ${command.path.join(" ").padEnd(width)}  ${command.summary}`);
  }
  lines.push(
    "",
    "Run `wren COMMAND --help` for the arguments of a command.",
    "Settings come from WREN_* environment variables (see docs/configuration.md).",
    "Commands other than serve and doctor work with or without a running server on the same data directory.",
  );
  return `${lines.join("\n")}\n`;
}

function groupHelp(group: string, commands: readonly Command[]): string {
  const lines = [
    `Usage: wren ${group} SUBCOMMAND [ARGUMENTS]`,
    "",
    GROUP_SUMMARIES[group] ?? "",
    "",
  ];
  lines.push("Subcommands:");
  for (const command of commands) lines.push(`  ${usageLine(command)}`);
  lines.push("", `Run \`wren ${group} SUBCOMMAND --help\` for details.`);
  return `${lines.join("\n")}\n`;
}

/** Runs the command line and returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (error) {
    return report(error);
  }
}

async function dispatch(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    process.stderr.write(mainHelp());
    return EXIT_USAGE;
  }
  if (first === "--help" || first === "-h") {
    process.stdout.write(mainHelp());
    return EXIT_OK;
  }
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${version()}\n`);
    return EXIT_OK;
  }
  // `wren help account create` is `wren account create --help`.
  if (first === "help") return dispatch(rest.length === 0 ? ["--help"] : [...rest, "--help"]);

  const single = COMMANDS.find((c) => c.path.length === 1 && c.path[0] === first);
  if (single) return runCommand(single, rest);

  const group = COMMANDS.filter((c) => c.path.length >= 2 && c.path[0] === first);
  if (group.length === 0) throw new UsageError(`Unknown command: ${first}`);
  const [sub, ...args] = rest;
  // Three words (`wren account alias add`) before two.
  const deep = group.find((c) => c.path.length === 3 && c.path[1] === sub && c.path[2] === args[0]);
  if (deep) return runCommand(deep, args.slice(1));
  const command = group.find((c) => c.path.length === 2 && c.path[1] === sub);
  if (command) return runCommand(command, args);
  if (sub === undefined || sub === "--help" || sub === "-h") {
    const out = sub === undefined ? process.stderr : process.stdout;
    out.write(groupHelp(first, group));
    return sub === undefined ? EXIT_USAGE : EXIT_OK;
  }
  throw new UsageError(`Unknown command: wren ${first} ${sub}`, `wren ${first} --help`);
}

async function runCommand(command: Command, argv: string[]): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(commandHelp(command));
    return EXIT_OK;
  }
  return command.run(parseCommandArgs(command, argv));
}

function report(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`wren: ${error.message}\nRun \`${error.helpCommand}\` for help.\n`);
    return EXIT_USAGE;
  }
  if (error instanceof ConfigError || error instanceof AppError || error instanceof AdminError) {
    process.stderr.write(`wren: ${error.message}\n`);
    return EXIT_FAILURE;
  }
  // Unexpected (a storage failure, a full disk): the message, without a stack trace.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`wren: ${message}\n`);
  return EXIT_FAILURE;
}
