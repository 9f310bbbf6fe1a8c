// Admin operations on local accounts and their tokens: create an account, reset its password,
// make a personal access token.

import { z } from "zod";
import { ROLES } from "../domain/user.ts";
import { createLocalAccount } from "../services/accounts/create-local-account.ts";
import { resetPassword } from "../services/accounts/reset-password.ts";
import { createPersonalToken } from "../services/oauth/create-personal-token.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

export const ACCOUNT_OPERATIONS = {
  "account.create": op({
    args: z.object({
      username: z.string(),
      email: z.string(),
      password: z.string(),
      admin: z.boolean().default(false),
      role: z.enum(ROLES).optional(),
    }),
    async run(ctx, args) {
      const { account } = await createLocalAccount(ctx, {
        username: args.username,
        email: args.email,
        password: args.password,
        role: args.role ?? (args.admin ? "admin" : "user"),
        // The operator may take names kept from sign-ups, such as `admin`.
        allowReserved: true,
      });
      return { id: account.id, username: account.username };
    },
  }),
  "account.resetPassword": op({
    args: z.object({ username: z.string(), password: z.string() }),
    async run(ctx, args) {
      return resetPassword(ctx, { username: args.username, password: args.password });
    },
  }),
  "token.create": op({
    args: z.object({ username: z.string(), scopes: z.array(z.string()).default([]) }),
    async run(ctx, args) {
      const { secret } = await createPersonalToken(ctx, {
        username: args.username,
        scopes: args.scopes,
      });
      return { token: secret };
    },
  }),
};
