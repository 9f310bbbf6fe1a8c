// `wren account create`: a local account with its sign-in, e.g. the first administrator.

import { type Command, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

export const accountCreate: Command = {
  path: ["account", "create"],
  summary: "Create a local account and print its id. Works whether or not the server is running.",
  positionals: ["USERNAME"],
  options: {
    email: { type: "string", valueName: "EMAIL", required: true, description: "Sign-in email" },
    password: {
      type: "string",
      valueName: "PASSWORD",
      required: true,
      description: "Sign-in password",
    },
    admin: { type: "boolean", description: "Make the account an administrator" },
    role: {
      type: "string",
      valueName: "ROLE",
      description: "user, moderator, admin or owner (--admin is --role admin)",
    },
  },
  details: `Example:
  wren account create alice --email alice@example.com --password 'a long passphrase' --role owner`,
  async run({ positionals, options }) {
    const config = await commandConfig();
    const result = (await operate(config, "account.create", {
      username: positionals.USERNAME,
      email: options.email,
      password: options.password,
      admin: options.admin === true,
      ...(typeof options.role === "string" ? { role: options.role } : {}),
    })) as { id: string };
    process.stdout.write(`${result.id}\n`);
    return EXIT_OK;
  },
};
