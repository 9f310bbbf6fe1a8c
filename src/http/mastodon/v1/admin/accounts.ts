// The admin API's accounts (Mastodon's Api::V1::Admin::AccountsController, its account actions,
// and the v2 list): for holders of `manage_users` (moderators and up) with a token carrying
// admin:read:accounts or admin:write:accounts; deleting an account's data needs
// `delete_user_data` (admins and the owner). Rules in services/accounts/moderate-account.ts and
// admin-accounts.ts.

import type { Context, Hono } from "hono";
import { z } from "zod";
import { isStaff } from "../../../../domain/permissions.ts";
import { ROLES, type Role } from "../../../../domain/user.ts";
import { serializeAdminAccount } from "../../../../serialization/mastodon/admin-account.ts";
import { roleOfId } from "../../../../serialization/mastodon/role.ts";
import {
  type AdminAccountFilter,
  listAdminAccounts,
} from "../../../../services/accounts/admin-accounts.ts";
import {
  ACCOUNT_ACTIONS,
  actOnAccount,
  approveAccount,
  deleteAccountData,
  type Moderator,
  moderationTarget,
  rejectAccount,
  type Target,
  type UndoAction,
  undoAction,
} from "../../../../services/accounts/moderate-account.ts";
import { adminViewsOf } from "../../../../views/admin-account-view.ts";
import type { HttpDeps, HttpEnv } from "../../../env.ts";
import { type Access, requireViewer } from "../../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../../pagination.ts";
import { readValidParams } from "../../../params.ts";
import { anyIdParam, booleanParam, idParam, listParam } from "../../../schemas.ts";
import { urlContext } from "../../account-json.ts";

const READ = { scopes: ["admin:read:accounts"], permission: "manage_users" } as const;
const WRITE = { scopes: ["admin:write:accounts"], permission: "manage_users" } as const;
const DELETE = { scopes: ["admin:write:accounts"], permission: "delete_user_data" } as const;

const text = z.string().optional();

const v1Schema = z.object({
  ...pageFields(100, 200),
  local: booleanParam.optional(),
  remote: booleanParam.optional(),
  by_domain: text,
  active: booleanParam.optional(),
  pending: booleanParam.optional(),
  disabled: booleanParam.optional(),
  silenced: booleanParam.optional(),
  suspended: booleanParam.optional(),
  sensitized: booleanParam.optional(),
  username: text,
  display_name: text,
  email: text,
  ip: text,
  staff: booleanParam.optional(),
});

const v2Schema = z.object({
  ...pageFields(100, 200),
  origin: z.enum(["local", "remote"]).optional(),
  status: z.enum(["active", "pending", "disabled", "silenced", "suspended"]).optional(),
  permissions: z.enum(["staff"]).optional(),
  role_ids: listParam(anyIdParam).optional(),
  invited_by: idParam.optional(),
  username: text,
  display_name: text,
  by_domain: text,
  email: text,
  ip: text,
});

const actionSchema = z.object({
  type: z.enum(ACCOUNT_ACTIONS, { message: "Record invalid" }),
  report_id: idParam.optional(),
  warning_preset_id: anyIdParam.optional(),
  text: z.string().max(5000).optional(),
  send_email_notification: booleanParam.optional(),
});

const STAFF: Role[] = ROLES.filter(isStaff);

/** v1's booleans as the v2 filter; v1 lists local, active accounts unless told otherwise. */
function v1Filter(p: z.output<typeof v1Schema>): AdminAccountFilter {
  const states = (
    ["active", "pending", "disabled", "silenced", "suspended", "sensitized"] as const
  ).filter((s) => p[s] === true);
  return {
    origin: p.remote ? "remote" : "local",
    status: states.at(-1) ?? "active",
    roles: p.staff ? STAFF : undefined,
    username: p.username,
    displayName: p.display_name,
    byDomain: p.by_domain,
    email: p.email,
    ip: p.ip,
  };
}

function v2Filter(p: z.output<typeof v2Schema>): AdminAccountFilter {
  const byIds = p.role_ids?.flatMap((id) => roleOfId(id) ?? []);
  const roles =
    p.permissions === "staff" ? STAFF.filter((r) => !byIds || byIds.includes(r)) : byIds;
  return {
    origin: p.origin,
    status: p.status,
    roles,
    invitedBy: p.invited_by,
    username: p.username,
    displayName: p.display_name,
    byDomain: p.by_domain,
    email: p.email,
    ip: p.ip,
  };
}

const ID = "/api/v1/admin/accounts/:id{[0-9]+}";

const UNDO: readonly UndoAction[] = ["enable", "unsilence", "unsuspend", "unsensitive"];

export function adminAccountRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  const render = async (targets: readonly Target[]) => {
    const urls = urlContext(ctx);
    return (await adminViewsOf(ctx, targets)).map((v) => serializeAdminAccount(v, urls));
  };
  const answer = async (c: Context<HttpEnv>, target: Target) => c.json((await render([target]))[0]);
  const moderator = (c: Context<HttpEnv>): Moderator => {
    const viewer = requireViewer(c);
    return { accountId: viewer.account.id, role: viewer.user.role };
  };
  const list = async (
    c: Context<HttpEnv>,
    filter: AdminAccountFilter,
    page: ReturnType<typeof toIdPage>,
  ) => {
    const found = await listAdminAccounts(ctx, filter, page);
    setLinkHeader(c, ctx.settings.publicUrl, found);
    return c.json(await render(found.targets));
  };

  app.get("/api/v1/admin/accounts", access(READ), async (c) => {
    const params = await readValidParams(c, v1Schema);
    return list(c, v1Filter(params), toIdPage(params));
  });

  app.get("/api/v2/admin/accounts", access(READ), async (c) => {
    const params = await readValidParams(c, v2Schema);
    return list(c, v2Filter(params), toIdPage(params));
  });

  app.get(ID, access(READ), async (c) => answer(c, await moderationTarget(ctx, c.req.param("id"))));

  app.post(`${ID}/approve`, access(WRITE), async (c) =>
    answer(c, await approveAccount(ctx, c.req.param("id"))),
  );

  app.post(`${ID}/reject`, access(WRITE), async (c) =>
    answer(c, await rejectAccount(ctx, c.req.param("id"))),
  );

  app.post(`${ID}/action`, access(WRITE), async (c) => {
    const params = await readValidParams(c, actionSchema);
    await actOnAccount(ctx, moderator(c), c.req.param("id"), {
      type: params.type,
      reportId: params.report_id,
      text: params.text,
    });
    return c.json({});
  });

  for (const action of UNDO) {
    app.post(`${ID}/${action}`, access(WRITE), async (c) =>
      answer(c, await undoAction(ctx, moderator(c), c.req.param("id"), action)),
    );
  }

  app.delete(ID, access(DELETE), async (c) =>
    answer(c, await deleteAccountData(ctx, moderator(c), c.req.param("id"))),
  );
}
