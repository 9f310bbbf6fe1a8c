// Admin operations on accounts for the operator, who outranks every role: `wren account
// suspend|unsuspend|silence|unsilence|sensitive|unsensitive|disable|enable USERNAME` (the admin
// API's actions, services/accounts/moderate-account.ts) and `wren account role USERNAME ROLE`.

import { z } from "zod";
import { notFound } from "../domain/errors.ts";
import { ROLES } from "../domain/user.ts";
import { parseAcct } from "../services/accounts/lookup-account.ts";
import {
  actOnAccount,
  OPERATOR,
  type Target,
  undoAction,
} from "../services/accounts/moderate-account.ts";
import type { ServiceContext } from "../services/context.ts";
import { MODERATION_ACTIONS } from "./moderation-actions.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

export interface ModerationState {
  username: string;
  suspended: boolean;
  silenced: boolean;
  sensitized: boolean;
  disabled: boolean;
}

/** A local `name` or a remote `name@host`, as the account store knows it. */
async function accountIdOf(ctx: ServiceContext, handle: string): Promise<string> {
  const parsed = parseAcct(ctx, handle);
  const account = parsed
    ? await ctx.storage.accounts.findByUsername(parsed.username, parsed.domain)
    : undefined;
  if (!account) throw notFound(`No account ${handle}`);
  return account.id;
}

async function stateOf(ctx: ServiceContext, id: string): Promise<ModerationState> {
  const account = await ctx.storage.accounts.get(id);
  if (!account) throw notFound();
  const user = account.domain === null ? await ctx.storage.users.get(id) : undefined;
  const target: Target = { account, user };
  return {
    username: account.domain === null ? account.username : `${account.username}@${account.domain}`,
    suspended: target.account.suspended === true,
    silenced: target.account.silencedAt !== undefined,
    sensitized: target.account.sensitizedAt !== undefined,
    disabled: target.user?.disabled === true,
  };
}

export const MODERATION_OPERATIONS = {
  "account.moderate": op({
    args: z.object({ username: z.string().min(1), action: z.enum(MODERATION_ACTIONS) }),
    // A suspension deletes the actor on other servers.
    federation: true,
    async run(ctx: ServiceContext, args) {
      const id = await accountIdOf(ctx, args.username);
      switch (args.action) {
        case "suspend":
        case "silence":
        case "sensitive":
        case "disable":
          await actOnAccount(ctx, OPERATOR, id, { type: args.action });
          break;
        default:
          await undoAction(ctx, OPERATOR, id, args.action);
      }
      return stateOf(ctx, id);
    },
  }),
  "account.role": op({
    args: z.object({ username: z.string().min(1), role: z.enum(ROLES) }),
    async run(ctx: ServiceContext, args) {
      const account = await ctx.storage.accounts.findByUsername(
        args.username.trim().replace(/^@/, ""),
        null,
      );
      const user = account ? await ctx.storage.users.get(account.id) : undefined;
      if (!account || !user) throw notFound(`No local account ${args.username}`);
      if (user.role !== args.role) await ctx.storage.users.put({ ...user, role: args.role });
      return { username: account.username, role: args.role };
    },
  }),
};
