// `wren account alias add|remove|list` and `wren account move`: moving an account in (its old
// accounts listed as aliases, the actor's alsoKnownAs) and out (Move sent to every follower's
// server). Both fetch the other account from its server, so they need the network.

import { type Command, EXIT_OK } from "../command.ts";
import { operate } from "../operate.ts";
import { commandConfig } from "../setup.ts";

function printAliases(aliases: unknown): void {
  for (const alias of aliases as string[]) process.stdout.write(`${alias}\n`);
}

/** `alias add` and `alias remove`: the same arguments, the aliases left printed. */
function aliasChange(verb: "add" | "remove", summary: string, details?: string): Command {
  return {
    path: ["account", "alias", verb],
    summary,
    positionals: ["USERNAME", "URI_OR_HANDLE"],
    options: {},
    ...(details ? { details } : {}),
    async run({ positionals }) {
      const config = await commandConfig();
      printAliases(
        await operate(config, `account.alias.${verb}`, {
          username: positionals.USERNAME,
          alias: positionals.URI_OR_HANDLE,
        }),
      );
      return EXIT_OK;
    },
  };
}

export const accountAliasAdd = aliasChange(
  "add",
  "Name another account of the same person (before moving it here); prints the aliases.",
  `The other account is fetched from its server and its actor id is published in the
local account's alsoKnownAs, so that its followers' servers follow a Move from it to here.

Example:
  wren account alias add alice @alice@old.example`,
);

export const accountAliasRemove = aliasChange(
  "remove",
  "Remove an alias of a local account; prints the aliases left.",
);

export const accountAliasList: Command = {
  path: ["account", "alias", "list"],
  summary: "List the aliases of a local account (actor ids, one per line).",
  positionals: ["USERNAME"],
  options: {},
  async run({ positionals }) {
    const config = await commandConfig();
    printAliases(await operate(config, "account.alias.list", { username: positionals.USERNAME }));
    return EXIT_OK;
  },
};

export const accountMove: Command = {
  path: ["account", "move"],
  summary: "Move a local account to another one, taking its followers along.",
  positionals: ["USERNAME"],
  options: {
    to: {
      type: "string",
      valueName: "HANDLE",
      required: true,
      description: "The new account (@user@host or its actor URL)",
    },
  },
  details: `The new account must list this one among its aliases first (on Mastodon: Settings →
Account → Moving from a different account). Wren checks that, marks the account as moved, sends
Move to every follower's server (they follow the new account) and moves local followers too.
The old profile keeps answering and points to the new one.

Example:
  wren account move alice --to @alice@new.example`,
  async run({ positionals, options }) {
    const config = await commandConfig();
    const moved = (await operate(config, "account.move", {
      username: positionals.USERNAME,
      target: options.to,
    })) as { acct: string; movedTo: string };
    process.stderr.write(
      `${positionals.USERNAME} has moved to ${moved.acct} (${moved.movedTo}); its followers are told.\n`,
    );
    return EXIT_OK;
  },
};
