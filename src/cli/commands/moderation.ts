// `wren account suspend|unsuspend|silence|unsilence|sensitive|unsensitive|disable|enable
// USERNAME` (the moderators' actions, for the operator) and `wren account role USERNAME ROLE`.

import { MODERATION_ACTIONS } from "../../admin/moderation-actions.ts";
import type { ModerationState } from "../../admin/operations-moderation.ts";
import { type Command, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

const SUMMARIES: Record<(typeof MODERATION_ACTIONS)[number], string> = {
  suspend: "Suspend an account: hidden everywhere, sign-in refused, its actor deleted elsewhere.",
  unsuspend: "Lift a suspension: the account and its posts are back.",
  silence: "Silence (limit) an account: its posts leave public timelines for non-followers.",
  unsilence: "Lift a silence.",
  sensitive: "Mark all of an account's media sensitive.",
  unsensitive: "Stop marking an account's media sensitive.",
  disable: "Disable a local account's sign-in (its tokens stop working).",
  enable: "Enable a disabled local account's sign-in again.",
};

function stateLine(s: ModerationState): string {
  const marks = (["suspended", "silenced", "sensitized", "disabled"] as const).filter((k) => s[k]);
  return `${s.username}: ${marks.length > 0 ? marks.join(", ") : "no restrictions"}\n`;
}

export const moderationCommands: Command[] = MODERATION_ACTIONS.map((action) => ({
  path: ["account", action],
  summary: SUMMARIES[action],
  positionals: ["USERNAME"],
  options: {},
  details: "USERNAME is a local name or user@host for a remote account.",
  async run({ positionals }) {
    const config = await commandConfig();
    const state = (await operate(config, "account.moderate", {
      username: positionals.USERNAME,
      action,
    })) as ModerationState;
    process.stdout.write(stateLine(state));
    return EXIT_OK;
  },
}));

export const accountRole: Command = {
  path: ["account", "role"],
  summary: "Give a local account a role: user, moderator, admin or owner.",
  positionals: ["USERNAME", "ROLE"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    await operate(config, "account.role", {
      username: positionals.USERNAME,
      role: positionals.ROLE,
    });
    process.stderr.write(`${positionals.USERNAME} is now ${positionals.ROLE}.\n`);
    return EXIT_OK;
  },
};
