// `wren report list|show|resolve|reopen`: the reports users filed here (POST /api/v1/reports)
// and those other servers sent (Flag), for the moderators. An admin API comes later.

import type { ReportDetail, ReportSummary } from "../../admin/operations-reports.ts";
import { type Command, EXIT_OK, UsageError } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

function reportId(command: string, id: string | undefined): string {
  if (id === undefined || !/^[0-9]{1,25}$/.test(id)) {
    throw new UsageError(`${id ?? ""} is not a report id.`, `wren report ${command} --help`);
  }
  return id;
}

/** One line of a comment or a post, short enough for a terminal row. */
function oneLine(text: string, max = 60): string {
  const line = text.replace(/\s+/g, " ").trim();
  return [...line].length > max ? `${[...line].slice(0, max - 1).join("")}…` : line;
}

export const reportList: Command = {
  path: ["report", "list"],
  summary:
    "List open reports, newest first: id, time, category, reporter, target, statuses, comment.",
  positionals: [],
  options: {
    resolved: { type: "boolean", description: "List the resolved reports instead" },
    limit: { type: "string", valueName: "N", description: "At most N reports (default 100)" },
  },
  details: `Columns are tab-separated; an empty comment shows as "-". A report received from
another server names that server's account (often its instance actor) as the reporter.

Example:
  wren report list
  wren report list --resolved --limit 20`,
  async run({ options }) {
    const limit = options.limit === undefined ? 100 : Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new UsageError(
        "--limit must be a whole number from 1 to 1000.",
        "wren report list --help",
      );
    }
    const config = await commandConfig();
    const reports = (await operate(config, "report.list", {
      resolved: options.resolved === true,
      limit,
    })) as ReportSummary[];
    for (const r of reports) {
      const row = [
        r.id,
        r.createdAt,
        r.category,
        r.reporter,
        r.target,
        String(r.statusCount),
        r.comment === "" ? "-" : oneLine(r.comment),
      ];
      process.stdout.write(`${row.join("\t")}\n`);
    }
    return EXIT_OK;
  },
};

function detailLines(r: ReportDetail): string[] {
  const state =
    r.actionTakenAt === null
      ? "open"
      : `resolved at ${r.actionTakenAt}${r.actionTakenBy ? ` by ${r.actionTakenBy}` : ""}`;
  const origin = r.remote ? `received from another server (${r.uri})` : "filed here";
  const lines = [
    `Report ${r.id}`,
    `State:     ${state}`,
    `Created:   ${r.createdAt}, ${origin}`,
    `Reporter:  ${r.reporter}`,
    `Target:    ${r.target}${r.targetUri ? ` (${r.targetUri})` : ""}`,
    `Category:  ${r.category}`,
  ];
  for (const rule of r.rules)
    lines.push(`Rule ${rule.id}:    ${rule.text || "(no longer listed)"}`);
  if (!r.remote) {
    const to = [...r.forwardedToDomains];
    lines.push(
      `Forwarded: ${r.forwarded ? `yes${to.length ? ` (also to ${to.join(", ")})` : ""}` : "no"}`,
    );
  }
  lines.push(
    "Comment:",
    ...(r.comment === "" ? ["  -"] : r.comment.split("\n").map((l) => `  ${l}`)),
  );
  lines.push(`Statuses:  ${r.statuses.length + r.missingStatusIds.length}`);
  for (const s of r.statuses) {
    lines.push(
      `  ${s.id}  ${s.url}${s.deleted ? "  (deleted)" : ""}`,
      `    ${oneLine(s.text, 100)}`,
    );
  }
  for (const id of r.missingStatusIds) lines.push(`  ${id}  (no longer stored)`);
  return lines;
}

export const reportShow: Command = {
  path: ["report", "show"],
  summary: "Show a report: accounts, category, cited rules, comment and the reported statuses.",
  positionals: ["ID"],
  options: {},
  async run({ positionals }) {
    const id = reportId("show", positionals.ID);
    const config = await commandConfig();
    const detail = (await operate(config, "report.show", { id })) as ReportDetail;
    process.stdout.write(`${detailLines(detail).join("\n")}\n`);
    return EXIT_OK;
  },
};

export const reportResolve: Command = {
  path: ["report", "resolve"],
  summary: "Mark a report resolved (it leaves the open list).",
  positionals: ["ID"],
  options: {
    by: {
      type: "string",
      valueName: "USERNAME",
      description: "The local moderator recorded as resolving it (default: none, the operator)",
    },
  },
  details: `Resolving records the time (and the moderator given with --by); it takes no action
against the account: suspend or block it separately. Resolving a resolved report changes nothing.

Example:
  wren report resolve 113456789012345678 --by admin`,
  async run({ positionals, options }) {
    const id = reportId("resolve", positionals.ID);
    const config = await commandConfig();
    const result = (await operate(config, "report.resolve", {
      id,
      ...(typeof options.by === "string" ? { by: options.by } : {}),
    })) as { changed: boolean; actionTakenAt: string };
    process.stderr.write(
      result.changed
        ? `Resolved report ${id}.\n`
        : `Report ${id} was already resolved (at ${result.actionTakenAt}).\n`,
    );
    return EXIT_OK;
  },
};

export const reportReopen: Command = {
  path: ["report", "reopen"],
  summary: "Reopen a resolved report (it is listed as open again).",
  positionals: ["ID"],
  options: {},
  async run({ positionals }) {
    const id = reportId("reopen", positionals.ID);
    const config = await commandConfig();
    const result = (await operate(config, "report.reopen", { id })) as { changed: boolean };
    process.stderr.write(
      result.changed ? `Reopened report ${id}.\n` : `Report ${id} is already open.\n`,
    );
    return EXIT_OK;
  },
};
