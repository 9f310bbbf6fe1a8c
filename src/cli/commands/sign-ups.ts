// `wren account pending|approve|reject`: the sign-ups waiting for approval
// (WREN_REGISTRATIONS=approval), and `wren invite create|list|revoke`: invite links, which let
// someone sign up even when registrations are closed or need approval.

import type { InviteSummary, PendingSignUp } from "../../admin/operations-sign-ups.ts";
import { type Command, EXIT_OK, UsageError } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30m`, `12h`, `1d`, `2w` → milliseconds. */
export function parseExpiresIn(value: string): number | undefined {
  const match = /^([1-9][0-9]{0,4})([mhdw])$/.exec(value.trim());
  if (!match) return undefined;
  return Number(match[1]) * (UNITS[match[2] as string] as number);
}

export const accountPending: Command = {
  path: ["account", "pending"],
  summary: "List the sign-ups waiting for approval: username, email, time, reason.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const pending = (await operate(config, "account.pending", {})) as PendingSignUp[];
    for (const p of pending) {
      const reason = p.reason.replace(/\s+/g, " ").trim() || "-";
      process.stdout.write(`${[p.username, p.email, p.createdAt, reason].join("\t")}\n`);
    }
    return EXIT_OK;
  },
};

export const accountApprove: Command = {
  path: ["account", "approve"],
  summary: "Approve a sign-up waiting for approval: the account can sign in.",
  positionals: ["USERNAME"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    const { changed } = (await operate(config, "account.approve", {
      username: positionals.USERNAME,
    })) as { changed: boolean };
    process.stderr.write(
      changed
        ? `Approved ${positionals.USERNAME}.\n`
        : `${positionals.USERNAME} was not waiting for approval.\n`,
    );
    return EXIT_OK;
  },
};

export const accountReject: Command = {
  path: ["account", "reject"],
  summary: "Reject a sign-up waiting for approval: the account is deleted.",
  positionals: ["USERNAME"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    await operate(config, "account.reject", { username: positionals.USERNAME });
    process.stderr.write(`Rejected and deleted ${positionals.USERNAME}.\n`);
    return EXIT_OK;
  },
};

export const inviteCreate: Command = {
  path: ["invite", "create"],
  summary: "Make an invite link; it lets people sign up even when registrations are closed.",
  positionals: [],
  options: {
    "max-uses": {
      type: "string",
      valueName: "N",
      description: "At most N sign-ups (default: no limit)",
    },
    "expires-in": {
      type: "string",
      valueName: "TIME",
      description: "Valid for this long: 30m, 12h, 1d, 2w… (default: no expiry)",
    },
    autofollow: {
      type: "boolean",
      description: "New accounts follow the inviting user (needs --by)",
    },
    by: { type: "string", valueName: "USERNAME", description: "The local user who invites" },
  },
  details: `Prints the link (/invite/CODE). Sign-ups through it need no approval.

Example:
  wren invite create --max-uses 5 --expires-in 7d
  wren invite create --by alice --autofollow`,
  async run({ options }) {
    const maxUses = options["max-uses"] === undefined ? undefined : Number(options["max-uses"]);
    if (maxUses !== undefined && (!Number.isInteger(maxUses) || maxUses < 1)) {
      throw new UsageError(
        "--max-uses must be a whole number of at least 1.",
        "wren invite create --help",
      );
    }
    const expiresIn = options["expires-in"];
    const expiresInMs = typeof expiresIn === "string" ? parseExpiresIn(expiresIn) : undefined;
    if (typeof expiresIn === "string" && expiresInMs === undefined) {
      throw new UsageError(
        "--expires-in must be a number and a unit: 30m, 12h, 1d, 2w.",
        "wren invite create --help",
      );
    }
    if (options.autofollow === true && typeof options.by !== "string") {
      throw new UsageError("--autofollow needs --by USERNAME.", "wren invite create --help");
    }
    const config = await commandConfig();
    const invite = (await operate(config, "invite.create", {
      ...(maxUses !== undefined ? { maxUses } : {}),
      ...(expiresInMs !== undefined ? { expiresInMs } : {}),
      autofollow: options.autofollow === true,
      ...(typeof options.by === "string" ? { by: options.by } : {}),
    })) as InviteSummary;
    process.stdout.write(`${invite.url}\n`);
    return EXIT_OK;
  },
};

export const inviteList: Command = {
  path: ["invite", "list"],
  summary: "List invites, newest first: code, uses, expiry, state, link.",
  positionals: [],
  options: {},
  async run() {
    const config = await commandConfig();
    const invites = (await operate(config, "invite.list", {})) as InviteSummary[];
    for (const i of invites) {
      const state = i.revokedAt ? "revoked" : i.usable ? "usable" : "spent-or-expired";
      const row = [i.code, `${i.uses}/${i.maxUses ?? "∞"}`, i.expiresAt ?? "never", state, i.url];
      process.stdout.write(`${row.join("\t")}\n`);
    }
    return EXIT_OK;
  },
};

export const inviteRevoke: Command = {
  path: ["invite", "revoke"],
  summary: "Revoke an invite: its link stops working.",
  positionals: ["CODE"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    await operate(config, "invite.revoke", { code: positionals.CODE });
    process.stderr.write(`Revoked invite ${positionals.CODE}.\n`);
    return EXIT_OK;
  },
};
