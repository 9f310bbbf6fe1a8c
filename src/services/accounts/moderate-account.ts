// Moderators' actions on accounts (Mastodon's Admin::AccountAction and the admin accounts API;
// also `wren account suspend|silence|…` for the operator): approve or reject a sign-up, warn
// (`none`), mark the media sensitive, disable the sign-in, silence (limit) and suspend, and the
// reverse of each; and the deletion of a suspended account's data. Rules as Mastodon's
// AccountPolicy: the permission is the caller's to check (manage_users); a local account may be
// acted on only by a role above its own (403), and nobody acts on themselves.
//
// The state lives on the account record (silencedAt, sensitizedAt, suspended with suspendedAt
// and suspensionOrigin "local") and on the user (disabled). A suspension is reversible until the
// data is deleted: nothing is removed, the account is hidden everywhere (account-view, status
// views, listedAccount) and its tokens are refused; for a local account an `account.suspended`
// event has its actor deleted on other servers (the outbox bridge). Unless lifted, the data is
// deleted after the grace period (suspension-expiry.ts), as by deleteAccountData.

import { type Account, isLocallySuspended } from "../../domain/account.ts";
import { AppError, forbidden, notFound, unprocessable } from "../../domain/errors.ts";
import { roleOverrides } from "../../domain/permissions.ts";
import { isResolved } from "../../domain/report.ts";
import { isApproved, type Role, type User } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { walkPages } from "../paging.ts";
import { deleteAccountContent } from "../remote/remote-delete-actor.ts";
import { changeReport } from "../reports/moderate-report.ts";
import { endStreamingSessions } from "../streaming/sessions.ts";
import { approveSignUp, rejectSignUp } from "./approve-sign-up.ts";
import { rejectRemoteFollows } from "./reject-remote-follows.ts";
import { withSuspensionPurge } from "./suspension-expiry.ts";

/** Who acts: a signed-in moderator, or the operator at the CLI (no account, above everyone). */
export interface Moderator {
  accountId: string | null;
  role: Role;
}

export const OPERATOR: Moderator = { accountId: null, role: "owner" };

export const ACCOUNT_ACTIONS = ["none", "sensitive", "disable", "silence", "suspend"] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

export interface Target {
  account: Account;
  /** Undefined for remote accounts. */
  user: User | undefined;
}

const NOT_ALLOWED = "This action is not allowed";

export async function moderationTarget(ctx: ServiceContext, id: string): Promise<Target> {
  const account = await ctx.storage.accounts.get(id);
  if (!account) throw notFound();
  const user = account.domain === null ? await ctx.storage.users.get(account.id) : undefined;
  return { account, user };
}

/** Mastodon's `overrides?`: never oneself, and a local account only below the moderator's role. */
function assertMayActOn(moderator: Moderator, target: Target): void {
  // The operator at the CLI outranks even the owner.
  if (moderator.accountId === null) return;
  if (moderator.accountId === target.account.id) throw forbidden(NOT_ALLOWED);
  if (target.user && !roleOverrides(moderator.role, target.user.role)) throw forbidden(NOT_ALLOWED);
}

function localUser(target: Target): User {
  if (!target.user) throw forbidden(NOT_ALLOWED);
  return target.user;
}

async function putAccount(ctx: ServiceContext, account: Account): Promise<Account> {
  const next = { ...account, updatedAt: ctx.clock.now().toISOString() };
  await ctx.storage.accounts.put(next);
  return next;
}

/** Sets or clears one moderation mark on the record; unchanged when it already is so. */
async function mark(
  ctx: ServiceContext,
  account: Account,
  field: "silencedAt" | "sensitizedAt",
  on: boolean,
): Promise<Account> {
  if ((account[field] !== undefined) === on) return account;
  const { [field]: _dropped, ...rest } = account;
  return putAccount(ctx, on ? { ...account, [field]: ctx.clock.now().toISOString() } : rest);
}

async function setDisabled(ctx: ServiceContext, user: User, disabled: boolean): Promise<void> {
  if (user.disabled !== disabled) await ctx.storage.users.put({ ...user, disabled });
  // Its tokens are refused from now on, so open streams end and a reconnection fails; the
  // tokens themselves stay, for a later enable.
  if (disabled) await endStreamingSessions(ctx, user.accountId);
}

async function suspend(ctx: ServiceContext, account: Account): Promise<void> {
  if (account.suspended) return;
  await rejectRemoteFollows(ctx, account);
  const now = ctx.clock.now().toISOString();
  const next: Account = {
    ...account,
    suspended: true,
    suspendedAt: now,
    suspensionOrigin: "local",
    updatedAt: now,
  };
  // The deletion of its data, due at the end of the grace period, is stored with it.
  await publishAround(ctx.events, { type: "account.suspended", account: next }, () =>
    withSuspensionPurge(ctx, account.id, now, () => ctx.storage.accounts.put(next)),
  );
  if (account.domain === null) await endStreamingSessions(ctx, account.id);
}

/** Resolves the reports the action answers: the one given (`none`), or every open one. */
async function resolveReports(
  ctx: ServiceContext,
  moderator: Moderator,
  target: Target,
  type: AccountAction,
  reportId: string | undefined,
): Promise<void> {
  const ids = new Set<string>();
  if (reportId !== undefined) ids.add(reportId);
  if (type !== "none") {
    for await (const report of walkPages((page) =>
      ctx.storage.reports.list(page, { resolved: false }),
    )) {
      if (report.targetAccountId === target.account.id) ids.add(report.id);
    }
  }
  for (const id of ids) {
    await changeReport(ctx, id, (report) =>
      isResolved(report)
        ? undefined
        : {
            ...report,
            actionTakenAt: ctx.clock.now().toISOString(),
            actionTakenById: moderator.accountId,
          },
    );
  }
}

export interface ActionInput {
  type: AccountAction;
  reportId?: string | undefined;
  /** The moderator's words to the user; kept nowhere yet (Wren has no strikes or appeals). */
  text?: string | undefined;
}

/** POST /api/v1/admin/accounts/:id/action. */
export async function actOnAccount(
  ctx: ServiceContext,
  moderator: Moderator,
  id: string,
  input: ActionInput,
): Promise<void> {
  const target = await moderationTarget(ctx, id);
  if (input.reportId !== undefined) {
    const report = await ctx.storage.reports.get(input.reportId);
    if (!report) throw notFound();
    if (report.targetAccountId !== target.account.id) {
      throw unprocessable("The report is not about this account");
    }
  }
  assertMayActOn(moderator, target);
  switch (input.type) {
    case "none":
      break;
    case "sensitive":
      await mark(ctx, target.account, "sensitizedAt", true);
      break;
    case "silence":
      await mark(ctx, target.account, "silencedAt", true);
      break;
    case "disable":
      await setDisabled(ctx, localUser(target), true);
      break;
    case "suspend":
      await suspend(ctx, target.account);
      break;
  }
  await resolveReports(ctx, moderator, target, input.type, input.reportId);
}

export type UndoAction = "unsilence" | "unsensitive" | "enable" | "unsuspend";

/** The reverse actions; answers the target as it is afterwards. */
export async function undoAction(
  ctx: ServiceContext,
  moderator: Moderator,
  id: string,
  action: UndoAction,
): Promise<Target> {
  const target = await moderationTarget(ctx, id);
  assertMayActOn(moderator, target);
  switch (action) {
    case "unsilence":
      return { ...target, account: await mark(ctx, target.account, "silencedAt", false) };
    case "unsensitive":
      return { ...target, account: await mark(ctx, target.account, "sensitizedAt", false) };
    case "enable": {
      const user = localUser(target);
      await setDisabled(ctx, user, false);
      return { ...target, user: { ...user, disabled: false } };
    }
    case "unsuspend": {
      // Only our own suspensions: an account its server deleted stays gone.
      if (!isLocallySuspended(target.account)) throw forbidden(NOT_ALLOWED);
      const { suspended: _s, suspendedAt: _a, suspensionOrigin: _o, ...rest } = target.account;
      const next: Account = { ...rest, updatedAt: ctx.clock.now().toISOString() };
      await publishAround(ctx.events, { type: "account.unsuspended", account: next }, () =>
        ctx.storage.accounts.put(next),
      );
      return { ...target, account: next };
    }
  }
}

/** Approves a pending local sign-up; 403 for a remote or an approved account (Mastodon). */
export async function approveAccount(ctx: ServiceContext, id: string): Promise<Target> {
  const target = await moderationTarget(ctx, id);
  const user = localUser(target);
  if (isApproved(user)) throw forbidden(NOT_ALLOWED);
  await approveSignUp(ctx, target.account.username);
  return { ...target, user: { ...user, approved: true } };
}

/** Rejects (deletes) a pending local sign-up; answers it as it was. */
export async function rejectAccount(ctx: ServiceContext, id: string): Promise<Target> {
  const target = await moderationTarget(ctx, id);
  if (isApproved(localUser(target))) throw forbidden(NOT_ALLOWED);
  await rejectSignUp(ctx, target.account.username);
  return target;
}

/**
 * Deletes the data of a suspended account (Mastodon's Admin::AccountDeletionWorker): its
 * statuses, follows, requests and favourites, as an actor Delete does, and a local account's
 * sign-in. The record stays, suspended for good (its name is not reused, ids stay stable).
 */
export async function deleteAccountData(
  ctx: ServiceContext,
  moderator: Moderator,
  id: string,
): Promise<Target> {
  const target = await moderationTarget(ctx, id);
  if (!target.account.suspended) throw forbidden(NOT_ALLOWED);
  assertMayActOn(moderator, target);
  const { account } = target;
  await deleteAccountContent(ctx, account);
  if (account.domain === null) {
    const now = ctx.clock.now().toISOString();
    for (const token of await ctx.storage.tokens.listByAccount(account.id)) {
      if (token.revokedAt === null) await ctx.storage.tokens.put({ ...token, revokedAt: now });
    }
  }
  // Deleted for good: no longer reversible. A local actor's Delete goes out with the record
  // (to every server we know: its followers are gone by now).
  const gone: Account = {
    ...account,
    suspensionOrigin: "remote",
    updatedAt: ctx.clock.now().toISOString(),
  };
  await publishAround(ctx.events, { type: "account.data_deleted", account: gone }, () =>
    ctx.storage.accounts.put(gone),
  );
  return { ...target, account: gone };
}

export function assertKnownAction(type: string): asserts type is AccountAction {
  if (!(ACCOUNT_ACTIONS as readonly string[]).includes(type)) {
    throw new AppError(422, "Record invalid");
  }
}
