// Admin operations for moving accounts (`wren account alias …`, `wren account move`): they reach
// other servers (an alias or a target is resolved and fetched fresh), so a command run without a
// server builds the federation for them (`federation: true`, cli/operate.ts).

import { z } from "zod";
import { acctOf } from "../domain/account.ts";
import { addAlias, listAliases, removeAlias } from "../services/moves/aliases.ts";
import { moveAccount } from "../services/moves/move-account.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

const aliasArgs = z.object({ username: z.string().min(1), alias: z.string().min(1) });

export const MOVE_OPERATIONS = {
  "account.alias.add": op({
    args: aliasArgs,
    federation: true,
    run: (ctx, args) => addAlias(ctx, args.username, args.alias),
  }),
  "account.alias.remove": op({
    args: aliasArgs,
    federation: true,
    run: (ctx, args) => removeAlias(ctx, args.username, args.alias),
  }),
  "account.alias.list": op({
    args: z.object({ username: z.string().min(1) }),
    run: (ctx, args) => listAliases(ctx, args.username),
  }),
  "account.move": op({
    args: z.object({ username: z.string().min(1), target: z.string().min(1) }),
    federation: true,
    async run(ctx, args) {
      const { account, target } = await moveAccount(ctx, args.username, args.target);
      return { movedTo: target.uri, acct: acctOf(target), from: account.uri };
    },
  }),
};
