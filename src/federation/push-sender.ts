// The PushSender port (services/push/push-sender.ts) with the `web-push` library: Mastodon's
// payload encrypted for the subscription (RFC 8291 aes128gcm for `standard` subscriptions, the
// older aesgcm draft otherwise), the request signed with the instance's VAPID key (RFC 8292),
// TTL and Urgency set, and posted through the guarded fetch: a push endpoint is a URL the client
// chose, so private and loopback addresses are refused unless the test setting allows them.

import webpush from "web-push";
import type { Account } from "../domain/account.ts";
import type { Status } from "../domain/status.ts";
import { serializePushNotification } from "../serialization/mastodon/push-notification.ts";
import type { ServiceContext } from "../services/context.ts";
import type { PushMessage, PushSender } from "../services/push/push-sender.ts";
import { safeFetch } from "./safe-fetch.ts";

/** A push service answers with a short status; anything long is not worth reading. */
const ANSWER_MAX_BYTES = 64 * 1024;

/**
 * The VAPID `sub` claim: how the push service may reach the operator. Push services want an
 * https: URL or a mailto: address.
 */
function vapidSubject(settings: ServiceContext["settings"]): string {
  if (settings.publicUrl.startsWith("https:")) return settings.publicUrl;
  return `mailto:${settings.contactEmail ?? `admin@${settings.domain}`}`;
}

export function createPushSender(
  ctx: ServiceContext,
  settings: { allowPrivateAddress: boolean; timeoutMs?: number },
): PushSender {
  const urls = { publicUrl: ctx.settings.publicUrl, fileUrl: (key: string) => ctx.files.url(key) };

  async function payloadOf(message: PushMessage): Promise<string> {
    const { notification, subscription } = message;
    const [from, status, user] = await Promise.all([
      ctx.storage.accounts.get(notification.fromAccountId),
      notification.statusId ? ctx.storage.statuses.get(notification.statusId) : undefined,
      ctx.storage.users.get(notification.accountId),
    ]);
    if (!from) throw new Error(`account ${notification.fromAccountId} not found`);
    return serializePushNotification(
      {
        notification,
        accessToken: subscription.accessToken,
        locale: user?.locale || "en",
        from: from as Account,
        status: (status as Status | undefined) ?? null,
      },
      urls,
    );
  }

  return {
    async send(message) {
      const { subscription, vapid } = message;
      const details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: subscription.keys },
        await payloadOf(message),
        {
          vapidDetails: {
            subject: vapidSubject(ctx.settings),
            publicKey: vapid.publicKey,
            privateKey: vapid.privateKey,
          },
          TTL: message.ttlSeconds,
          urgency: message.urgency,
          contentEncoding: subscription.standard ? "aes128gcm" : "aesgcm",
        },
      );
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
      const response = await safeFetch(
        details.endpoint,
        { method: "POST", headers, body: details.body },
        {
          maxBytes: ANSWER_MAX_BYTES,
          timeoutMs: settings.timeoutMs ?? 10_000,
          ...(settings.allowPrivateAddress ? { isAllowedAddress: () => true } : {}),
        },
      );
      await response.body?.cancel();
      return { status: response.status };
    },
  };
}
