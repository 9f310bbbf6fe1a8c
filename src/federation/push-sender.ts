// The PushSender port (services/push/push-sender.ts) with the `web-push` library: Mastodon's
// payload encrypted for the subscription (RFC 8291 aes128gcm for `standard` subscriptions, the
// older aesgcm draft otherwise), the request signed with the instance's VAPID key (RFC 8292),
// TTL and Urgency set, and posted through the guarded fetch: a push endpoint is a URL the client
// chose, so private and loopback addresses are refused unless the test setting allows them. The
// connections to each push service are pooled and kept alive (safe-fetch.ts keepAliveAgents).

import webpush from "web-push";
import { serializePushNotification } from "../serialization/mastodon/push-notification.ts";
import type { ServiceContext } from "../services/context.ts";
import type { PushMessage, PushSender } from "../services/push/push-sender.ts";
import { keepAliveAgents, safeFetch } from "./safe-fetch.ts";

/** A push service answers with a short status; anything long is not worth reading. */
const ANSWER_MAX_BYTES = 64 * 1024;

/**
 * A VAPID JWT may serve many messages to one push service until it expires (RFC 8292 §2): each
 * is made to last 12 hours (web-push's default) and reused for one, so it always has 11 left.
 * Signing one costs about as much as encrypting a message.
 */
const JWT_LIFETIME_S = 12 * 3600;
const JWT_REUSE_MS = 3600_000;

type Coding = "aes128gcm" | "aesgcm";

/**
 * The VAPID `sub` claim: how the push service may reach the operator. Push services want an
 * https: URL or a mailto: address.
 */
function vapidSubject(settings: ServiceContext["settings"]): string {
  if (settings.publicUrl.startsWith("https:")) return settings.publicUrl;
  return `mailto:${settings.contactEmail ?? `admin@${settings.domain}`}`;
}

export function createPushSender(
  ctx: Pick<ServiceContext, "settings" | "files">,
  settings: { allowPrivateAddress: boolean; timeoutMs?: number },
): PushSender {
  const urls = { publicUrl: ctx.settings.publicUrl, fileUrl: (key: string) => ctx.files.url(key) };
  // Messages go to a few push services (Google's, Mozilla's, Apple's, a UnifiedPush
  // distributor), again and again: connections to each are kept open and reused rather than
  // made (over TLS, a handshake) per message.
  const agents = keepAliveAgents();
  const signed = new Map<
    string,
    { headers: { Authorization: string; "Crypto-Key"?: string }; until: number }
  >();

  /** The VAPID headers for the push service at `endpoint`, signed anew once an hour. */
  function vapidHeaders(endpoint: string, vapid: PushMessage["vapid"], coding: Coding) {
    const audience = new URL(endpoint).origin;
    // The system clock, not ctx.clock: push services check the JWT's expiry against theirs.
    const key = `${coding} ${vapid.publicKey} ${audience}`;
    const now = Date.now();
    const kept = signed.get(key);
    if (kept && kept.until > now) return kept.headers;
    // Expired entries of other push services go as new ones are made.
    for (const [name, entry] of signed) if (entry.until <= now) signed.delete(name);
    const headers = webpush.getVapidHeaders(
      audience,
      vapidSubject(ctx.settings),
      vapid.publicKey,
      vapid.privateKey,
      coding,
      Math.floor(now / 1000) + JWT_LIFETIME_S,
    );
    signed.set(key, { headers, until: now + JWT_REUSE_MS });
    return headers;
  }

  return {
    async send(message) {
      const { subscription, vapid } = message;
      const coding: Coding = subscription.standard ? "aes128gcm" : "aesgcm";
      const details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: subscription.keys },
        serializePushNotification(
          {
            notification: message.notification,
            accessToken: subscription.accessToken,
            locale: message.locale,
            from: message.from,
            status: message.status,
          },
          urls,
        ),
        { TTL: message.ttlSeconds, urgency: message.urgency, contentEncoding: coding },
      );
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
      // What generateRequestDetails adds with `vapidDetails`, from a JWT signed once an hour.
      const vapidSigned = vapidHeaders(subscription.endpoint, vapid, coding);
      headers.Authorization = vapidSigned.Authorization;
      if (vapidSigned["Crypto-Key"]) {
        const dh = headers["Crypto-Key"];
        headers["Crypto-Key"] = dh
          ? `${dh};${vapidSigned["Crypto-Key"]}`
          : vapidSigned["Crypto-Key"];
      }
      const response = await safeFetch(
        details.endpoint,
        { method: "POST", headers, body: details.body },
        {
          maxBytes: ANSWER_MAX_BYTES,
          timeoutMs: settings.timeoutMs ?? 10_000,
          agents,
          ...(settings.allowPrivateAddress ? { isAllowedAddress: () => true } : {}),
        },
      );
      await response.body?.cancel();
      return { status: response.status, retryAfter: response.headers.get("retry-after") };
    },
  };
}
