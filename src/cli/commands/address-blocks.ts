// `wren ip-block add|remove|list` and `wren email-block add|remove|list`: the admins' IP blocks
// (no_access refuses every request from the range, sign_up_block refuses sign-up,
// sign_up_requires_approval holds sign-ups for a moderator) and email domain blocks (sign-ups
// from the domain refused, or held with --allow-with-approval).

import { type Command, EXIT_OK, UsageError } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";
import { removalCommand } from "./removal.ts";

const IP_SEVERITIES = ["no_access", "sign_up_block", "sign_up_requires_approval"];

export const ipBlockAdd: Command = {
  path: ["ip-block", "add"],
  summary: "Block an address or CIDR range: no_access, sign_up_block or sign_up_requires_approval.",
  positionals: ["IP"],
  options: {
    severity: {
      type: "string",
      valueName: "SEVERITY",
      required: true,
      description: IP_SEVERITIES.join(", "),
    },
    comment: { type: "string", valueName: "TEXT", description: "A note for admins" },
    "expires-in": {
      type: "string",
      valueName: "SECONDS",
      description: "Lift the block after this many seconds (default: never)",
    },
  },
  details: `Examples:
  wren ip-block add 198.51.100.0/24 --severity no_access --comment "abuse"
  wren ip-block add 2001:db8::/32 --severity sign_up_requires_approval --expires-in 86400`,
  async run({ positionals, options }) {
    const severity = String(options.severity);
    if (!IP_SEVERITIES.includes(severity)) {
      throw new UsageError(`--severity must be one of ${IP_SEVERITIES.join(", ")}`);
    }
    const expires = options["expires-in"];
    if (typeof expires === "string" && !/^[1-9][0-9]*$/.test(expires)) {
      throw new UsageError("--expires-in must be a positive number of seconds");
    }
    const config = await commandConfig();
    const block = (await operate(config, "ip-block.add", {
      ip: positionals.IP,
      severity,
      ...(typeof options.comment === "string" ? { comment: options.comment } : {}),
      ...(typeof expires === "string" ? { expiresIn: Number(expires) } : {}),
    })) as { ip: string; severity: string };
    process.stdout.write(`${block.ip}\n`);
    process.stderr.write(`Blocked ${block.ip} (${block.severity}).\n`);
    return EXIT_OK;
  },
};

export const ipBlockRemove = removalCommand({
  path: ["ip-block", "remove"],
  summary: "Lift the blocks of an address or CIDR range.",
  positional: "IP",
  operation: "ip-block.remove",
  argument: "ip",
  absent: "is not blocked",
  done: "Unblocked",
});

export const ipBlockList: Command = {
  path: ["ip-block", "list"],
  summary: "List the IP blocks: range, severity, expiry (or -) and comment, tab-separated.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const blocks = (await operate(config, "ip-block.list", {})) as {
      ip: string;
      severity: string;
      expiresAt: string | null;
      comment: string;
    }[];
    for (const b of blocks) {
      const comment = b.comment.replace(/\s+/g, " ").trim() || "-";
      process.stdout.write(`${[b.ip, b.severity, b.expiresAt ?? "-", comment].join("\t")}\n`);
    }
    return EXIT_OK;
  },
};

export const emailBlockAdd: Command = {
  path: ["email-block", "add"],
  summary: "Refuse sign-ups from an email domain (and its subdomains).",
  positionals: ["DOMAIN"],
  options: {
    "allow-with-approval": {
      type: "boolean",
      description: "Take the sign-ups but hold them for a moderator",
    },
  },
  async run({ positionals, options }) {
    const config = await commandConfig();
    const block = (await operate(config, "email-block.add", {
      domain: positionals.DOMAIN,
      allowWithApproval: options["allow-with-approval"] === true,
    })) as { domain: string };
    process.stdout.write(`${block.domain}\n`);
    return EXIT_OK;
  },
};

export const emailBlockRemove = removalCommand({
  path: ["email-block", "remove"],
  summary: "Lift the block of an email domain.",
  positional: "DOMAIN",
  operation: "email-block.remove",
  argument: "domain",
  absent: "is not blocked",
  done: "Unblocked",
});

export const emailBlockList: Command = {
  path: ["email-block", "list"],
  summary: "List the blocked email domains: domain, time and approval, tab-separated.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const blocks = (await operate(config, "email-block.list", {})) as {
      domain: string;
      createdAt: string;
      allowWithApproval: boolean;
    }[];
    for (const b of blocks) {
      const mode = b.allowWithApproval ? "approval" : "refused";
      process.stdout.write(`${[b.domain, b.createdAt, mode].join("\t")}\n`);
    }
    return EXIT_OK;
  },
};
