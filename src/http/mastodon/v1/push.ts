// POST/GET/PUT/DELETE /api/v1/push/subscription: the Web Push subscription of the access token
// in use (a user token with the `push` scope). POST takes the push service's endpoint and the
// subscriber's keys; POST and PUT take `data[alerts][<type>]` and `data[policy]` (PUT also a
// top-level `policy`, as Mastodon's documentation shows it). Alert types Mastodon does not know
// are ignored, as its controller does.

import type { Hono } from "hono";
import { z } from "zod";
import { PUSH_ALERT_TYPES, PUSH_POLICIES } from "../../../domain/push-subscription.ts";
import { serializeWebPushSubscription } from "../../../serialization/mastodon/web-push-subscription.ts";
import {
  getPushSubscription,
  type PushSettings,
  subscribeToPush,
  unsubscribeFromPush,
  updatePushSubscription,
} from "../../../services/push/subscriptions.ts";
import { vapidKeys } from "../../../services/push/vapid-keys.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { bearerOf } from "../../middleware/caller.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam } from "../../schemas.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";

const alertsSchema = z
  .object(Object.fromEntries(PUSH_ALERT_TYPES.map((type) => [type, booleanParam.optional()])))
  .optional();

const policySchema = z.enum(PUSH_POLICIES as [string, ...string[]]).optional();

const dataSchema = z.object({ alerts: alertsSchema, policy: policySchema }).optional();

const createSchema = z.object({
  subscription: z.object(
    {
      endpoint: z.string().min(1, "can't be blank"),
      keys: z.object(
        {
          p256dh: z.string().min(1, "can't be blank"),
          auth: z.string().min(1, "can't be blank"),
        },
        { error: "is missing" },
      ),
      standard: booleanParam.optional(),
    },
    { error: "is missing" },
  ),
  data: dataSchema,
});

const updateSchema = z.object({ data: dataSchema, policy: policySchema });

function settingsOf(data: z.infer<typeof dataSchema>, policy?: string | undefined): PushSettings {
  const alerts: PushSettings["alerts"] = {};
  for (const [type, on] of Object.entries(data?.alerts ?? {})) {
    if (on !== undefined) alerts[type as keyof typeof alerts] = on;
  }
  return { alerts, policy: (data?.policy ?? policy ?? "all") as PushSettings["policy"] };
}

export function pushRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const path = "/api/v1/push/subscription";
  const rule = access({ scopes: ["push"], user: true });
  const render = async (subscription: Parameters<typeof serializeWebPushSubscription>[0]) =>
    serializeWebPushSubscription(subscription, (await vapidKeys(ctx)).publicKey);

  app.post(path, rule, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, createSchema);
    const { subscription } = params;
    const created = await subscribeToPush(
      ctx,
      {
        token: { ...viewer.token, accountId: viewer.account.id },
        secret: bearerOf(c) ?? "",
      },
      {
        endpoint: subscription.endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
        standard: subscription.standard ?? false,
        ...settingsOf(params.data),
      },
    );
    return c.json(await render(created));
  });

  app.get(path, rule, async (c) => {
    const viewer = requireViewer(c);
    return c.json(await render(await getPushSubscription(ctx, viewer.token.id)));
  });

  app.on(UPDATE_METHODS, path, rule, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, updateSchema);
    const updated = await updatePushSubscription(
      ctx,
      viewer.token.id,
      settingsOf(params.data, params.policy),
    );
    return c.json(await render(updated));
  });

  app.delete(path, rule, async (c) => {
    const viewer = requireViewer(c);
    await unsubscribeFromPush(ctx, viewer.token.id);
    return c.json({});
  });
}
