// `wren token create`: a personal access token for scripts and tests. Only the token goes to
// stdout, so `TOKEN=$(wren token create alice)` works.

import { parseScopes } from "../../domain/scopes.ts";
import { type Command, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

export const DEFAULT_TOKEN_SCOPES = "read write follow push";

export const tokenCreate: Command = {
  path: ["token", "create"],
  summary: "Create an access token for a local account and print it (the only output).",
  positionals: ["USERNAME"],
  options: {
    scopes: {
      type: "string",
      valueName: "SCOPES",
      description: `Space-separated OAuth scopes (default: "${DEFAULT_TOKEN_SCOPES}")`,
    },
  },
  details: `Example:
  TOKEN=$(wren token create alice --scopes "read write")
  curl -H "Authorization: Bearer $TOKEN" http://localhost:3000/api/v1/accounts/verify_credentials`,
  async run({ positionals, options }) {
    const config = await commandConfig();
    const result = (await operate(config, "token.create", {
      username: positionals.USERNAME,
      scopes: parseScopes(
        typeof options.scopes === "string" ? options.scopes : DEFAULT_TOKEN_SCOPES,
      ),
    })) as { token: string };
    process.stdout.write(`${result.token}\n`);
    return EXIT_OK;
  },
};
