// Admin operations on sign-ups and invites: `wren account pending|approve|reject` and
// `wren invite create|list|revoke`.

import { z } from "zod";
import { isApproved } from "../domain/user.ts";
import { approveSignUp, rejectSignUp } from "../services/accounts/approve-sign-up.ts";
import {
  createInvite,
  type Invite,
  inviteUsable,
  listInvites,
  revokeInvite,
} from "../services/accounts/invites.ts";
import type { ServiceContext } from "../services/context.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

export interface PendingSignUp {
  username: string;
  email: string;
  createdAt: string;
  reason: string;
}

export interface InviteSummary extends Invite {
  url: string;
  usable: boolean;
  inviter: string | null;
}

async function summaryOf(ctx: ServiceContext, invite: Invite): Promise<InviteSummary> {
  const inviter = invite.inviterId ? await ctx.storage.accounts.get(invite.inviterId) : undefined;
  return {
    ...invite,
    url: `${ctx.settings.publicUrl}/invite/${invite.code}`,
    usable: inviteUsable(invite, ctx.clock.now()),
    inviter: inviter?.username ?? null,
  };
}

const username = z.string().min(1);
const code = z.string().regex(/^[A-Za-z0-9]{1,64}$/, "must be an invite code");

export const SIGN_UP_OPERATIONS = {
  "account.pending": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      const pending = (await ctx.storage.users.list()).filter((u) => !isApproved(u));
      const accounts = await ctx.storage.accounts.getMany(pending.map((u) => u.accountId));
      return pending.flatMap((u): PendingSignUp[] => {
        const account = accounts.get(u.accountId);
        return account
          ? [
              {
                username: account.username,
                email: u.email,
                createdAt: u.createdAt,
                reason: u.signUpReason ?? "",
              },
            ]
          : [];
      });
    },
  }),
  "account.approve": op({
    args: z.object({ username }),
    async run(ctx: ServiceContext, args) {
      return { changed: await approveSignUp(ctx, args.username) };
    },
  }),
  "account.reject": op({
    args: z.object({ username }),
    async run(ctx: ServiceContext, args) {
      await rejectSignUp(ctx, args.username);
      return {};
    },
  }),
  "invite.create": op({
    args: z.object({
      maxUses: z.number().int().min(1).optional(),
      expiresInMs: z.number().int().min(1).optional(),
      autofollow: z.boolean().default(false),
      by: z.string().optional(),
    }),
    async run(ctx: ServiceContext, args) {
      const invite = await createInvite(ctx, {
        maxUses: args.maxUses,
        expiresInMs: args.expiresInMs,
        autofollow: args.autofollow,
        inviter: args.by,
      });
      return summaryOf(ctx, invite);
    },
  }),
  "invite.list": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      return Promise.all((await listInvites(ctx)).map((i) => summaryOf(ctx, i)));
    },
  }),
  "invite.revoke": op({
    args: z.object({ code }),
    async run(ctx: ServiceContext, args) {
      return summaryOf(ctx, await revokeInvite(ctx, args.code));
    },
  }),
};
