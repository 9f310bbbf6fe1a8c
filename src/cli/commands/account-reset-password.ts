// `wren account reset-password`: sets a new password for a local account.

import { type Command, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

export const accountResetPassword: Command = {
  path: ["account", "reset-password"],
  summary: "Set a new password for a local account.",
  positionals: ["USERNAME"],
  options: {
    password: {
      type: "string",
      valueName: "PASSWORD",
      required: true,
      description: "The new password",
    },
  },
  async run({ positionals, options }) {
    const config = await commandConfig();
    await operate(config, "account.resetPassword", {
      username: positionals.USERNAME,
      password: options.password,
    });
    process.stderr.write(`The password of ${positionals.USERNAME} has been changed.\n`);
    return EXIT_OK;
  },
};
