// The notification filtering policy: GET/PATCH /api/v2/notifications/policy (an action per kind
// of sender) and the older GET/PATCH /api/v1/notifications/policy (on/off switches, where on
// means filter), each answered with the summary of what is held back.

import type { Hono } from "hono";
import { z } from "zod";
import { type NotificationPolicy, POLICY_ACTIONS } from "../../../domain/notification-policy.ts";
import {
  serializePolicyV1,
  serializePolicyV2,
} from "../../../serialization/mastodon/notification-policy.ts";
import { policyOf, policySummary, updatePolicy } from "../../../services/notifications/policy.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam } from "../../schemas.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";

const action = z.enum(POLICY_ACTIONS as [string, ...string[]]).optional();
const v2Schema = z.object({
  for_not_following: action,
  for_not_followers: action,
  for_new_accounts: action,
  for_private_mentions: action,
  for_limited_accounts: action,
});

const v1Schema = z.object({
  filter_not_following: booleanParam.optional(),
  filter_not_followers: booleanParam.optional(),
  filter_new_accounts: booleanParam.optional(),
  filter_private_mentions: booleanParam.optional(),
});

/** The fields a request set, by policy field name. */
function changesOf(entries: [keyof NotificationPolicy, unknown][]): Partial<NotificationPolicy> {
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
}

const switchTo = (on: boolean | undefined) =>
  on === undefined ? undefined : on ? "filter" : "accept";

export function notificationPolicyRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:notifications"], user: true });
  const write = access({ scopes: ["write:notifications"], user: true });

  const answer = async (accountId: string, policy: NotificationPolicy, v1: boolean) => {
    const summary = await policySummary(ctx, accountId);
    return v1 ? serializePolicyV1(policy, summary) : serializePolicyV2(policy, summary);
  };

  for (const version of ["v1", "v2"] as const) {
    app.get(`/api/${version}/notifications/policy`, read, async (c) => {
      const viewer = requireViewer(c);
      const policy = await policyOf(ctx, viewer.account.id);
      return c.json(await answer(viewer.account.id, policy, version === "v1"));
    });
  }

  app.on(UPDATE_METHODS, "/api/v2/notifications/policy", write, async (c) => {
    const viewer = requireViewer(c);
    const p = await readValidParams(c, v2Schema);
    const changes = changesOf([
      ["forNotFollowing", p.for_not_following],
      ["forNotFollowers", p.for_not_followers],
      ["forNewAccounts", p.for_new_accounts],
      ["forPrivateMentions", p.for_private_mentions],
      ["forLimitedAccounts", p.for_limited_accounts],
    ]);
    const policy = await updatePolicy(ctx, viewer.account.id, changes);
    return c.json(await answer(viewer.account.id, policy, false));
  });

  app.on(UPDATE_METHODS, "/api/v1/notifications/policy", write, async (c) => {
    const viewer = requireViewer(c);
    const p = await readValidParams(c, v1Schema);
    const changes = changesOf([
      ["forNotFollowing", switchTo(p.filter_not_following)],
      ["forNotFollowers", switchTo(p.filter_not_followers)],
      ["forNewAccounts", switchTo(p.filter_new_accounts)],
      ["forPrivateMentions", switchTo(p.filter_private_mentions)],
    ]);
    const policy = await updatePolicy(ctx, viewer.account.id, changes);
    return c.json(await answer(viewer.account.id, policy, true));
  });
}
